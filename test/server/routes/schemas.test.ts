import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { DEFAULT_SCHEMA_URL } from '../../../compiler/config/index.js'
import { testApp } from '../helper.js'

test('GET /schemas/docs.schema.json serves the schema that docsctl new writes into $schema', async (t) => {
  const app = await testApp(t)
  const response = await app.inject({ url: new URL(DEFAULT_SCHEMA_URL).pathname })
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /^application\/schema\+json/)
  assert.deepEqual(
    response.json(),
    JSON.parse(readFileSync(fromPackageRoot('schemas/docs.schema.json'), 'utf8')),
  )
})

test('GET /schemas/frontmatter.schema.json serves the page front matter schema', async (t) => {
  const app = await testApp(t)
  const response = await app.inject({ url: '/schemas/frontmatter.schema.json' })
  assert.equal(response.statusCode, 200)
  assert.equal(response.json().properties.title.type, 'string')
})

test('GET /schemas/ of anything else is a 400 naming the schemas there are', async (t) => {
  const app = await testApp(t)
  for (const name of ['../package.json', 'nope.json', '..%2F..%2Fetc%2Fpasswd']) {
    const response = await app.inject({ url: `/schemas/${name}` })
    assert.ok([400, 404].includes(response.statusCode), `${name} → ${response.statusCode}`)
    assert.equal(typeof response.json().error, 'string')
  }
})
