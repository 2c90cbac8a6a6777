import { corpusTest } from './corpus.js'

corpusTest('x402')
