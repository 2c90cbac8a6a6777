/**
 * `npm run docs:generate`: writes the manual's generated references from the code they describe:
 * the docsctl commands (cli/reference.ts), the docs-server settings (server/settings/reference.ts),
 * the REST API's OpenAPI document (server/openapi-document.ts), and the docs.json and front matter
 * keys (schemas/reference.ts). test/docs/references.test.ts fails while any committed file differs.
 */
import { writeFileSync } from 'node:fs'
import { docsctlReference, docsctlReferencePath } from '../cli/reference.js'
import { fromPackageRoot } from '../lib/package-root.js'
import { schemaReference, schemaReferences } from '../schemas/reference.js'
import { openapiDocumentPath, openapiDocumentText } from '../server/openapi-document.js'
import { referencePath, settingsReference } from '../server/settings/reference.js'

const generated: [path: string, source: string, text: string][] = [
  [docsctlReferencePath, 'cli/commands/', docsctlReference()],
  [referencePath, 'server/settings/table.ts', settingsReference()],
  [openapiDocumentPath, 'GET /openapi.json', await openapiDocumentText()],
  ...schemaReferences.map((reference): [string, string, string] => [
    reference.page,
    reference.schema,
    schemaReference(reference),
  ]),
]
for (const [path, source, text] of generated) {
  writeFileSync(fromPackageRoot(path), text)
  console.log(`${source} → ${path}`)
}
