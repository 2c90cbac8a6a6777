/** The package's version, read once from package.json: the CLI's `--version`, its User-Agent and the API document share it. */
import { readFileSync } from 'node:fs'
import { fromPackageRoot } from './package-root.js'

export const packageVersion: string = (
  JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as { version: string }
).version
