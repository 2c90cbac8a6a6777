/**
 * `npm run build`'s step after tsc: the validators of docs.json and of page front matter compiled once,
 * as ajv's standalone code, into dist/schemas/ with the SHA-256 of the schema each came from
 * (compiler/compiled-validators.ts loads them only while that still matches). The options are the ones
 * the run-time fallbacks compile with.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Ajv, type Options } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { sha256Hex } from '../compiler/compiled-validators.js'
import { compiledValidatorPath, docsSchema, validatorOptions } from '../compiler/config/schema.js'
import {
  compiledFrontMatterPath,
  frontMatterSchemaText,
  frontMatterValidatorOptions,
} from '../compiler/content/frontmatter.js'
import { fromPackageRoot } from '../lib/package-root.js'

const withSource = (options: Options): Ajv => new Ajv({ ...options, code: { ...options.code, source: true } })

async function write(path: string, schemaFile: string, code: string): Promise<void> {
  const schemaText = await readFile(fromPackageRoot('schemas', schemaFile), 'utf8')
  await mkdir(dirname(path), { recursive: true })
  await writeFile(
    path,
    `/* Compiled from schemas/${schemaFile} by scripts/compile-validator.ts at \`npm run build\`. */\n${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(sha256Hex(schemaText))};\n`,
  )
}

const docs = withSource(validatorOptions)
await write(
  compiledValidatorPath,
  'docs.schema.json',
  standaloneCode.default(docs, docs.compile(docsSchema())),
)

// One export per property: front matter is judged key by key.
const frontMatter = withSource(frontMatterValidatorOptions)
const properties = (JSON.parse(frontMatterSchemaText()) as { properties: Record<string, object> }).properties
for (const [key, property] of Object.entries(properties)) frontMatter.addSchema(property, key)
await write(
  compiledFrontMatterPath,
  'frontmatter.schema.json',
  standaloneCode.default(frontMatter, Object.fromEntries(Object.keys(properties).map((key) => [key, key]))),
)
