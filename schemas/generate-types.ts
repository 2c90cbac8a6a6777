/**
 * The TypeScript types of docs.json and page front matter, generated from their JSON Schemas (the
 * source of truth, served to authors' editors) into schemas/generated/. Run `npm run schemas:types`
 * after changing a schema; test/schemas/generate-types.test.ts fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { compile, type JSONSchema } from 'json-schema-to-typescript'
import { fromPackageRoot } from '../lib/package-root.js'

/** Each schema and the file its types are written to, relative to the package root. */
export const generatedTypes = [
  { schema: 'schemas/docs.schema.json', output: 'schemas/generated/docs-json.ts' },
  { schema: 'schemas/frontmatter.schema.json', output: 'schemas/generated/front-matter.ts' },
] as const

const banner = (schema: string) =>
  `/* Generated from ${schema} by \`npm run schemas:types\`; edit the schema, not this file. */`

/** The text of one generated file. */
export async function generateTypes(schemaPath: string): Promise<string> {
  const schema = JSON.parse(await readFile(fromPackageRoot(schemaPath), 'utf8')) as JSONSchema
  return compile(schema, schema.title ?? schemaPath, {
    bannerComment: banner(schemaPath),
    format: false,
    cwd: fromPackageRoot('schemas'),
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const { schema, output } of generatedTypes) {
    await writeFile(fromPackageRoot(output), await generateTypes(schema))
    console.log(`${schema} → ${output}`)
  }
}
