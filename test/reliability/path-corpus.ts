import { Cases, type Suite } from './suite.js'

export const pathCorpus: Suite = {
  name: 'path-corpus',
  async run() {
    return new Cases().report({})
  },
}
