import { corpusTest } from './corpus.js'

corpusTest('rallly')
