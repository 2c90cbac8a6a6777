/**
 * `openapi:` front matter and where its spec comes from: docs.json's `api.openapi`, else a spec that
 * sits in the site unnamed (the format's default when there is one), else a diagnostic at the page's
 * `openapi:` line, never a blank page without a word.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const spec = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Plants', version: '1' },
  servers: [{ url: 'https://api.plants.example' }],
  paths: {
    '/plants': { get: { summary: 'List plants', responses: { 200: { description: 'The plants' } } } },
  },
})

const site = (pages: Record<string, string>, extra: Record<string, string> = {}) =>
  new Map<string, Uint8Array>(
    Object.entries({
      'docs.json': JSON.stringify({ name: 'Plants', navigation: { pages: Object.keys(pages) } }),
      ...Object.fromEntries(Object.entries(pages).map(([slug, text]) => [`${slug}.mdx`, text])),
      ...extra,
    }).map(([path, text]) => [path, encoder.encode(text)]),
  )

const page = '---\ntitle: List plants\nopenapi: "GET /plants"\n---\n\nEvery plant in the store.\n'

test('an openapi: page finds the one spec in the site when docs.json names none', async () => {
  const result = await buildSite(site({ 'list-plants': page }, { 'specs/plants.json': spec }), {
    mode: 'strict',
  })
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
  const html = decoder.decode(result.files.get('list-plants/index.html'))
  assert.match(html, /class="d-api-endpoint" data-method="get"/)
  assert.match(html, /Every plant in the store/)
})

test('an openapi: page that nothing resolves is a diagnostic at its openapi: line, and keeps its own text', async () => {
  const lonely = '---\ntitle: Lonely\ndescription: One\nopenapi: "GET /nowhere"\n---\n\nStill here.\n'
  for (const mode of ['lenient', 'strict'] as const) {
    const result = await buildSite(site({ lonely }, mode === 'lenient' ? {} : { 'plants.json': spec }), {
      mode,
    })
    const found = result.diagnostics.filter((diagnostic) => diagnostic.rule === 'openapi-operation')
    assert.equal(found.length, 1, result.diagnostics.map(formatDiagnostic).join('\n'))
    assert.equal(found[0]!.severity, mode === 'strict' ? 'error' : 'warning')
    assert.match(
      formatDiagnostic(found[0]!),
      /^lonely\.mdx:4:1 Unexpected openapi: "GET \/nowhere", expected an/,
    )
    if (mode === 'lenient') assert.match(decoder.decode(result.files.get('lonely/index.html')), /Still here/)
  }
})

test('openapi-schema: and asyncapi: pages that resolve nothing are placed at their own line', async () => {
  const result = await buildSite(
    site({
      schema: '---\nopenapi-schema: Missing\n---\n\nText.\n',
      channel: '---\ntitle: Channel\nasyncapi: "nowhere"\n---\n\nText.\n',
    }),
    { mode: 'lenient' },
  )
  const places = result.diagnostics
    .filter((diagnostic) => diagnostic.rule === 'openapi-operation')
    .map((diagnostic) => `${diagnostic.file}:${diagnostic.line}`)
  assert.deepEqual(places.sort(), ['channel.mdx:3', 'schema.mdx:2'])
})

test('a spec named without its extension, or by its file stem, is the site file the format means', async () => {
  const files = site(
    {
      'by-stem': '---\nopenapi: "v3-openapi GET /plants"\n---\n',
      'by-path': '---\nopenapi: "/specs/v3-openapi GET /plants"\n---\n',
    },
    { 'specs/v3-openapi.json': spec },
  )
  // And in navigation: a group naming the spec by its stem lists its operations.
  const config = JSON.parse(decoder.decode(files.get('docs.json'))) as { navigation: { pages: string[] } }
  config.navigation.pages.push('v3-openapi GET /plants')
  files.set('docs.json', encoder.encode(JSON.stringify(config)))
  const result = await buildSite(files, { mode: 'strict' })
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [])
  for (const page of ['by-stem', 'by-path', 'api-reference/list-plants'])
    assert.match(
      decoder.decode(result.files.get(`${page}/index.html`)),
      /class="d-api-endpoint" data-method="get"/,
      page,
    )
})
