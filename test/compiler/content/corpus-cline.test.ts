import { corpusTest } from './corpus.js'

corpusTest('cline')
