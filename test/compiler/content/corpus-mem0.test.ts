import { corpusTest } from './corpus.js'

corpusTest('mem0')
