/**
 * The manual's generated references match what `npm run docs:generate` writes from the code today, and
 * each is complete: every docsctl command and option, every docs.json and front matter key, every route
 * of the server, and every built-in component (with a live example) has its entry. The docs-server
 * settings are checked by test/server/settings/reference.test.ts.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import {
  commandHeading,
  docsctlDefinitions,
  docsctlReference,
  docsctlReferencePath,
} from '../../cli/reference.js'
import { components } from '../../compiler/components/index.js'
import { fromPackageRoot } from '../../lib/package-root.js'
import { readSchema, type SchemaNode, schemaReference, schemaReferences } from '../../schemas/reference.js'
import { openapiDocumentPath, openapiDocumentText } from '../../server/openapi-document.js'

const committed = (path: string): string => readFileSync(fromPackageRoot(path), 'utf8')
const stale = (path: string) => `${path} is stale: run npm run docs:generate`

test('the docsctl reference is up to date and names every command and option', () => {
  const page = committed(docsctlReferencePath)
  assert.equal(page, docsctlReference(), stale(docsctlReferencePath))
  const definitions = docsctlDefinitions()
  assert.ok(definitions.length >= 30, `only ${definitions.length} commands`)
  const sections = new Map(
    page
      .split(/^## /m)
      .slice(1)
      .map((section) => [section.slice(0, section.indexOf('\n')), section]),
  )
  for (const definition of definitions) {
    const section = sections.get(commandHeading(definition.path))
    assert.ok(section, `${definition.path} has no section`)
    assert.ok(section.includes(`\n${definition.path}`), `${definition.path}: no usage`)
    for (const option of definition.options) {
      for (const name of option.definition.match(/--?[a-z][a-z-]*/g) ?? []) {
        assert.ok(section.includes(name), `${definition.path}: ${name} has no entry`)
      }
    }
  }
})

/** Every key of every `properties` anywhere in a schema. */
function propertyKeys(node: SchemaNode): string[] {
  const children = [
    ...Object.values(node.properties ?? {}),
    ...Object.values(node.definitions ?? {}),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.items ? [node.items] : []),
    ...(typeof node.additionalProperties === 'object' ? [node.additionalProperties] : []),
  ]
  return [...Object.keys(node.properties ?? {}), ...children.flatMap(propertyKeys)]
}

test('the docs.json and front matter references are up to date and name every key', () => {
  for (const reference of schemaReferences) {
    const page = committed(reference.page)
    assert.equal(page, schemaReference(reference), stale(reference.page))
    const keys = new Set(propertyKeys(readSchema(reference.schema)))
    assert.ok(keys.size > 10, `${reference.schema}: only ${keys.size} keys`)
    for (const key of keys) {
      const escaped = key.replace(/[$.*+?^()[\]{}|\\]/g, '\\$&')
      assert.match(
        page,
        new RegExp(`\\| \`(?:[^\`|]*[.\\]])?${escaped}\``),
        `${reference.schema}: ${key} has no entry`,
      )
    }
  }
})

test('the REST API document is the one the server describes', async () => {
  const document = await openapiDocumentText()
  assert.equal(committed(openapiDocumentPath), document, stale(openapiDocumentPath))
  const { paths } = JSON.parse(document) as { paths: Record<string, object> }
  assert.ok(Object.keys(paths).length > 20)
})

test('the components page shows every built-in component', () => {
  const page = committed('docs/writing/components.mdx')
  for (const name of components.keys()) {
    assert.ok(page.includes(`<${name}`), `${name} has no example in docs/writing/components.mdx`)
  }
})
