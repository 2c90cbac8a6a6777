import { Cases, type Suite } from './suite.js'

export const hostileInput: Suite = {
  name: 'hostile-input',
  async run() {
    return new Cases().report({})
  },
}
