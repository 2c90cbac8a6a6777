/**
 * Reading a spec: JSON and YAML, `$ref`s resolved only from the site's files (never the disk or the
 * network, whatever a `$ref` says), circular schemas kept as cycles, and every problem a diagnostic
 * with the file and the JSON path or line — never a thrown error.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { loadSpec, locateSpecPath } from '../../../compiler/openapi/load.js'

const encoder = new TextEncoder()
const site = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)]))

const withRef = (ref: string) => `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '${ref}' } } }
`

test('a $ref into another file of the site resolves, relative to the spec', async () => {
  const files = site({
    'api/openapi.yaml': withRef('./schemas/thing.json#/Thing'),
    'api/schemas/thing.json':
      '{ "Thing": { "type": "object", "properties": { "self": { "$ref": "#/Thing" } } } }',
  })
  const spec = await loadSpec(files, 'api/openapi.yaml')
  assert.deepEqual(spec.diagnostics, [])
  const paths = spec.document!.paths as Record<string, Record<string, Record<string, unknown>>>
  const responses = paths['/x']!.get!.responses as Record<
    string,
    { content: Record<string, { schema: Record<string, unknown> }> }
  >
  const thing = responses['200']!.content['application/json']!.schema
  assert.equal(thing.type, 'object')
  assert.equal((thing.properties as Record<string, unknown>).self, thing, 'a circular schema stays a cycle')
})

test('a $ref never reads the disk or leaves the site, however it is written', async () => {
  for (const ref of ['../../../../etc/passwd#/x', '/etc/passwd#/x', 'file:///etc/passwd#/x']) {
    const spec = await loadSpec(site({ 'openapi.yaml': withRef(ref) }), 'openapi.yaml')
    assert.equal(spec.diagnostics.length, 1, ref)
    assert.equal(spec.diagnostics[0]!.rule, 'openapi-ref', ref)
    assert.equal(
      spec.diagnostics[0]!.path,
      'paths["/x"].get.responses[200].content["application/json"].schema',
      ref,
    )
    assert.ok(spec.document, 'the rest of the spec is still there')
  }
})

test('a $ref to a URL is refused without a request', async (t) => {
  let requests = 0
  const server = createServer((_, response) => {
    requests++
    response.end('{"x": {"type": "string"}}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json#/x`
  const spec = await loadSpec(site({ 'openapi.yaml': withRef(url) }), 'openapi.yaml')
  assert.equal(spec.diagnostics[0]?.rule, 'openapi-ref')
  assert.equal(requests, 0)
})

test('a spec that does not parse, or is not OpenAPI, is a diagnostic with its place', async () => {
  const yaml = await loadSpec(site({ 'bad.yaml': 'openapi: 3.0.0\npaths:\n  /x: [unclosed\n' }), 'bad.yaml')
  assert.equal(yaml.document, undefined)
  assert.equal(yaml.diagnostics[0]!.rule, 'openapi-invalid')
  assert.equal(yaml.diagnostics[0]!.file, 'bad.yaml')
  assert.equal(typeof yaml.diagnostics[0]!.line, 'number')
  const other = await loadSpec(site({ 'package.json': '{ "name": "x" }' }), 'package.json')
  assert.match(
    other.diagnostics[0]!.message,
    /expected an object with an `openapi` \(3\.x\), `swagger` \(2\.0\) or `asyncapi` version/,
  )
  const missing = await loadSpec(site({}), 'nowhere.yaml')
  assert.equal(missing.diagnostics[0]!.rule, 'openapi-missing')
})

test('a file map changed in place (as docsctl dev does) reads a changed referenced file again', async () => {
  const files = site({
    'openapi.yaml': withRef('./thing.yaml#/Thing'),
    'thing.yaml': 'Thing: { type: string }',
  })
  const schemaOf = async () => {
    const spec = await loadSpec(files, 'openapi.yaml')
    const paths = spec.document!.paths as Record<string, Record<string, Record<string, unknown>>>
    const responses = paths['/x']!.get!.responses as Record<
      string,
      { content: Record<string, { schema: Record<string, unknown> }> }
    >
    return responses['200']!.content['application/json']!.schema
  }
  assert.equal((await schemaOf()).type, 'string')
  assert.equal(
    await loadSpec(files, 'openapi.yaml'),
    await loadSpec(files, 'openapi.yaml'),
    'unchanged: read once',
  )
  files.set('thing.yaml', encoder.encode('Thing: { type: integer }'))
  assert.equal((await schemaOf()).type, 'integer')
})

test('locateSpecPath finds the line of a JSON path in YAML and JSON, as deep as the text goes', () => {
  const yaml =
    "openapi: 3.1.0\npaths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n"
  assert.deepEqual(locateSpecPath(yaml, 'paths["/pets"].get.responses[200]'), { line: 6, column: 9 })
  assert.deepEqual(locateSpecPath(yaml, 'paths["/pets"].post'), { line: 3, column: 3 })
  const json = '{\n  "paths": {\n    "/pets": {\n      "get": {}\n    }\n  }\n}\n'
  assert.deepEqual(locateSpecPath(json, 'paths["/pets"].get'), { line: 4, column: 7 })
  assert.equal(locateSpecPath(yaml, 'components'), undefined)
})
