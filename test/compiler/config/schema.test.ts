import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { Ajv } from 'ajv'
import { fromPackageRoot } from '../../../compiler/assets.js'
import {
  compiledValidator,
  compiledValidatorPath,
  docsSchema,
  docsSchemaSha256,
  docsValidator,
  validatorOptions,
} from '../../../compiler/config/schema.js'
import { corpusRoot, corpusSites } from '../../corpus.js'

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

test('the validator compiled at build gives the verdicts and errors of one compiled at run time', async () => {
  const compiled = compiledValidator()
  assert.ok(compiled, `npm run build wrote ${compiledValidatorPath} from the current schema`)
  assert.equal(docsValidator(), compiled, 'docsValidator uses it')
  const fresh = new Ajv(validatorOptions).compile(docsSchema())
  const navigation = fromPackageRoot('test', 'compiler', 'config', 'fixtures', 'navigation')
  const docsJsonFiles = [
    ...corpusSites.map((site) => join(corpusRoot, site, 'docs.json')),
    ...(await readdir(navigation)).map((shape) => join(navigation, shape, 'docs.json')),
    fromPackageRoot('fixtures', 'sites', 'minimal', 'docs.json'),
    fromPackageRoot('fixtures', 'sites', 'full', 'docs.json'),
  ]
  const inputs: unknown[] = [
    ...docsJsonFiles.map((file) => JSON.parse(readFileSync(file, 'utf8'))),
    {},
    null,
    [],
    { name: 7, theme: 'nope', navigation: { pages: [{}] }, colors: { primary: 'red' }, extra: true },
  ]
  for (const input of inputs) {
    const verdict = compiled(input)
    assert.equal(verdict, fresh(input))
    assert.deepEqual(compiled.errors ?? null, fresh.errors ?? null)
  }
})

test('a compiled validator from another schema is not used', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docs-validator-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const stale = join(dir, 'docs-validator.cjs')
  await writeFile(stale, `module.exports = () => true\nmodule.exports.schemaSha256 = '${'0'.repeat(64)}'\n`)
  assert.equal(compiledValidator(stale), undefined)
  assert.equal(compiledValidator(join(dir, 'missing.cjs')), undefined)
  // Another file: Node keeps the module it loaded from the first.
  const current = join(dir, 'current.cjs')
  await writeFile(
    current,
    `module.exports = () => true\nmodule.exports.schemaSha256 = '${docsSchemaSha256()}'\n`,
  )
  assert.equal(typeof compiledValidator(current), 'function')
})
