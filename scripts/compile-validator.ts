/**
 * `npm run build`'s step after tsc: the validators of docs.json and of page front matter compiled once,
 * as ajv's standalone code, into dist/schemas/ with the SHA-256 of the schema each came from
 * (compiler/compiled-validators.ts loads them only while that still matches). The options are the ones
 * the run-time fallbacks compile with.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Ajv, type Options } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { sha256Hex } from '../compiler/compiled-validators.js'
import {
  compiledValidatorPath,
  docsSchema,
  docsSchemaSha256,
  validatorOptions,
} from '../compiler/config/schema.js'
import {
  compiledFrontMatterPath,
  frontMatterSchemaText,
  frontMatterValidatorOptions,
} from '../compiler/content/frontmatter.js'

const withSource = (options: Options): Ajv => new Ajv({ ...options, code: { ...options.code, source: true } })

/** The hash is of the text the loaders read, so what they check is what was compiled. */
async function write(path: string, schemaFile: string, schemaSha256: string, code: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(
    path,
    `/* Compiled from schemas/${schemaFile} by scripts/compile-validator.ts at \`npm run build\`. */\n${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(schemaSha256)};\n`,
  )
}

const docs = withSource(validatorOptions)
await write(
  compiledValidatorPath,
  'docs.schema.json',
  docsSchemaSha256(),
  standaloneCode.default(docs, docs.compile(docsSchema())),
)

// One export per property: front matter is judged key by key.
const frontMatter = withSource(frontMatterValidatorOptions)
const frontMatterText = frontMatterSchemaText()
const properties = (JSON.parse(frontMatterText) as { properties: Record<string, object> }).properties
for (const [key, property] of Object.entries(properties)) frontMatter.addSchema(property, key)
await write(
  compiledFrontMatterPath,
  'frontmatter.schema.json',
  sha256Hex(frontMatterText),
  standaloneCode.default(frontMatter, Object.fromEntries(Object.keys(properties).map((key) => [key, key]))),
)
