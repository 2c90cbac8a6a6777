/** `docsctl dev` honours docs.json redirects as a deployment does: 308/307 with the query kept. */
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startDevServer } from '../../../cli/dev/server.js'
import { fromPackageRoot } from '../../../compiler/assets.js'

const dir = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'redirects-site')

test('dev answers docs.json redirects before the 404, keeping the query', async (t) => {
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const fetchPath = (path: string) => fetch(new URL(path, server.url), { redirect: 'manual' })
  for (const [path, status, location] of [
    ['/setup', 308, '/guide/install'],
    ['/setup/?from=mail', 308, '/guide/install?from=mail'],
    ['/old/usage', 307, '/guide/usage'],
    ['/forum', 308, 'https://forum.example.com'],
  ] as const) {
    const response = await fetchPath(path)
    assert.equal(response.status, status, path)
    assert.equal(response.headers.get('location'), location, path)
  }
  assert.equal((await fetchPath('/guide/install/')).status, 200)
  assert.equal((await fetchPath('/missing')).status, 404)
})

test('dev picks up redirects edited while it runs, in docs.json or its $ref file', async (t) => {
  const copy = mkdtempSync(join(tmpdir(), 'docsctl-dev-redirects-'))
  t.after(() => rmSync(copy, { recursive: true, force: true }))
  cpSync(dir, copy, { recursive: true })
  const server = await startDevServer({ dir: copy, port: 0, log: () => {} })
  t.after(() => server.close())
  const location = async (path: string) =>
    (await fetch(new URL(path, server.url), { redirect: 'manual' })).headers.get('location')
  assert.equal(await location('/setup'), '/guide/install')
  writeFileSync(join(copy, 'redirects.json'), '[{ "source": "/setup", "destination": "/guide/usage" }]\n')
  for (let attempt = 0; attempt < 200 && (await location('/setup')) !== '/guide/usage'; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 25))
  assert.equal(await location('/setup'), '/guide/usage')
})

test('dev answers the redirects a build generates: folder pages and earlier operation URLs', async (t) => {
  const copy = mkdtempSync(join(tmpdir(), 'docsctl-dev-generated-'))
  t.after(() => rmSync(copy, { recursive: true, force: true }))
  cpSync(fromPackageRoot('fixtures', 'api-reference'), copy, { recursive: true })
  mkdirSync(join(copy, 'guide'))
  writeFileSync(join(copy, 'guide', 'index.mdx'), '---\ntitle: Guide\n---\n\nThe guide.\n')
  const server = await startDevServer({ dir: copy, port: 0, log: () => {} })
  t.after(() => server.close())
  const fetchPath = (path: string) => fetch(new URL(path, server.url), { redirect: 'manual' })
  for (const [path, location] of [
    ['/guide/index', '/guide/'],
    ['/api-reference/list-plants', '/api-reference/plants/list-plants'],
    ['/api-reference/list-plants?x=1', '/api-reference/plants/list-plants?x=1'],
  ] as const) {
    const response = await fetchPath(path)
    assert.equal(response.status, 308, path)
    assert.equal(response.headers.get('location'), location, path)
  }
  assert.equal((await fetchPath('/guide/')).status, 200)
  assert.equal((await fetchPath('/api-reference/plants/list-plants/')).status, 200)
})
