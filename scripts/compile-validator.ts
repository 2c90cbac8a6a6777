/**
 * `npm run build`'s last step: the docs.json validator compiled once, as ajv's standalone code, into
 * dist/schemas/docs-validator.cjs with the SHA-256 of the schema it came from (compiler/config/schema.ts
 * loads it only while that still matches). The options are the ones the run-time fallback compiles with.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Ajv } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import {
  compiledValidatorPath,
  docsSchema,
  docsSchemaSha256,
  validatorOptions,
} from '../compiler/config/schema.js'

const ajv = new Ajv({ ...validatorOptions, code: { ...validatorOptions.code, source: true } })
const code = standaloneCode.default(ajv, ajv.compile(docsSchema()))
await mkdir(dirname(compiledValidatorPath), { recursive: true })
await writeFile(
  compiledValidatorPath,
  `/* Compiled from schemas/docs.schema.json by scripts/compile-validator.ts at \`npm run build\`. */\n${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(docsSchemaSha256())};\n`,
)
