import { readFileSync } from 'node:fs'
import { fromPackageRoot } from '../compiler/assets.js'

export const cliVersion: string = (
  JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as { version: string }
).version
