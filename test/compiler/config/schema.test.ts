import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { Ajv } from 'ajv'
import { fromPackageRoot } from '../../../compiler/assets.js'

type Node = Record<string, unknown>
const schema = JSON.parse(readFileSync(fromPackageRoot('schemas', 'docs.schema.json'), 'utf8')) as Node

/** Every property declared anywhere in the schema, with its JSON pointer. */
function properties(node: unknown, pointer: string, out: [string, Node][] = []): [string, Node][] {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      properties(item, `${pointer}/${index}`, out)
    })
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node as Node)) {
      if (key === 'properties' && child && typeof child === 'object') {
        for (const [name, property] of Object.entries(child as Node))
          out.push([`${pointer}/properties/${name}`, property as Node])
      }
      properties(child, `${pointer}/${key}`, out)
    }
  }
  return out
}

test('every property of docs.schema.json has a description for editors', () => {
  const missing = properties(schema, '#')
    .filter(([, property]) => {
      if (typeof property.description === 'string' && property.description.length > 0) return false
      // A `$ref` property borrows the description of its definition.
      const ref = property.$ref
      if (typeof ref !== 'string') return true
      const target = ref.replace('#/definitions/', '')
      const definition = (schema.definitions as Record<string, Node>)[target]
      return typeof definition?.description !== 'string'
    })
    .map(([pointer]) => pointer)
  assert.deepEqual(missing, [])
})

test('objects whose fields the spec lists reject unknown keys', () => {
  const definitions = schema.definitions as Record<string, Node>
  const top = schema.properties as Record<string, Node>
  for (const node of [
    schema,
    definitions.navigation,
    definitions.section,
    definitions.globalLinks,
    definitions.group,
    definitions.link,
    definitions.openapiSource,
    definitions.api,
    top.appearance,
    top.navbar,
    top.contextual,
  ]) {
    assert.equal(node?.additionalProperties, false, JSON.stringify(node?.description))
  }
})

test('the published schema (what editors load) accepts the full fixture and rejects a typo', () => {
  const validate = new Ajv({ strict: false }).compile(schema)
  const full = JSON.parse(readFileSync(fromPackageRoot('fixtures', 'sites', 'full', 'docs.json'), 'utf8'))
  assert.equal(validate(full), true, JSON.stringify(validate.errors))
  const tab = JSON.parse(
    readFileSync(fromPackageRoot('fixtures', 'sites', 'full', 'tabs', 'api-reference.json'), 'utf8'),
  )
  assert.equal(validate({ name: 'A', navigation: { tabs: [tab] } }), true)
  assert.equal(validate({ name: 'A', navigation: { tabs: [{ tab: 'T', grups: [] }] } }), false)
  // Groups nested in pages and sections nested in sections are the format's own: editors accept them.
  assert.equal(
    validate({ name: 'A', navigation: { groups: [{ group: 'G', pages: [{ group: 'H', pages: [] }] }] } }),
    true,
  )
  assert.equal(
    validate({
      name: 'A',
      navigation: { versions: [{ version: 'v1', tabs: [{ tab: 'T', pages: ['a'] }] }] },
    }),
    true,
  )
})
