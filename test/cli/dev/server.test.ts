/**
 * `docsctl dev` through the shared site router: .docsignore holds for files changed while it runs,
 * pages carry the deployment's policy (plus the live reload script), uploaded SVG is sandboxed, and a
 * page answers its Markdown export to `Accept: text/markdown`, and `/mcp` is the site's MCP server.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type TestContext, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startDevServer } from '../../../cli/dev/server.js'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { SANDBOXED_FILE_POLICY } from '../../../compiler/security-headers.js'

const fixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'shell-site')

async function serveCopy(t: TestContext, extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-dev-router-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(fixture, dir, { recursive: true })
  for (const [path, text] of Object.entries(extra)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const fetchPath = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, server.url), { redirect: 'manual', headers })
  return { dir, fetchPath, url: server.url }
}

async function untilStatus(fetchPath: (path: string) => Promise<Response>, path: string, status: number) {
  let last = 0
  for (let attempt = 0; attempt < 200; attempt++) {
    last = (await fetchPath(path)).status
    if (last === status) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.equal(last, status, path)
}

test('files changed while dev runs are left out when .docsignore lists them', async (t) => {
  const { dir, fetchPath } = await serveCopy(t, { '.docsignore': 'drafts/\n*.secret.txt\n' })
  mkdirSync(join(dir, 'drafts'))
  writeFileSync(join(dir, 'drafts', 'plan.txt'), 'not for readers')
  writeFileSync(join(dir, 'keys.secret.txt'), 'not for readers')
  writeFileSync(join(dir, 'notes.txt'), 'for readers')
  await untilStatus(fetchPath, '/notes.txt', 200)
  assert.equal((await fetchPath('/drafts/plan.txt')).status, 404)
  assert.equal((await fetchPath('/keys.secret.txt')).status, 404)

  // A changed .docsignore applies at once to files already read.
  writeFileSync(join(dir, '.docsignore'), 'drafts/\n*.secret.txt\nnotes.txt\n')
  await untilStatus(fetchPath, '/notes.txt', 404)
})

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

test('dev pages carry the policy a deployment sends, with the live reload script allowed', async (t) => {
  const { fetchPath } = await serveCopy(t)
  const home = await fetchPath('/')
  const html = await home.text()
  const policy = home.headers.get('content-security-policy') ?? ''
  assert.match(policy, /object-src 'none'/)
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!)
  assert.ok(scripts.length >= 2, 'the colour-mode script and the live reload script')
  for (const script of scripts) assert.ok(policy.includes(sha256(script)), script.slice(0, 40))

  const logo = await fetchPath('/logo/light.svg')
  assert.equal(logo.status, 200)
  assert.equal(logo.headers.get('content-security-policy'), SANDBOXED_FILE_POLICY)
  assert.equal(logo.headers.get('x-content-type-options'), 'nosniff')

  const markdown = await fetchPath('/guide/setup/', { accept: 'text/markdown' })
  assert.match(markdown.headers.get('content-type') ?? '', /^text\/markdown/)
  assert.match(await markdown.text(), /^# Setup/)

  const deep = await fetchPath('/no/such/page/')
  assert.equal(deep.status, 404)
  assert.match(await deep.text(), /<base href="\/">/, '404.html links resolve from the site root')
})

test('dev answers the site MCP server at /mcp, as a deployment does', async (t) => {
  const { url, fetchPath } = await serveCopy(t)
  const client = new Client({ name: 'docs-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('mcp', url)))
  t.after(() => client.close())
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort()
  assert.deepEqual(tools, ['get_page', 'list_pages', 'search'])
  const found = (await client.callTool({ name: 'search', arguments: { query: 'rollback' } }))
    .structuredContent as {
    results: { title: string; url: string }[]
  }
  assert.equal(found.results[0]?.title, 'Deploy')
  assert.equal(found.results[0]?.url, new URL('guide/deploy/', url).href)
  const page = (await client.callTool({ name: 'get_page', arguments: { page: found.results[0]?.url ?? '' } }))
    .content as { text: string }[]
  assert.match(page[0]?.text ?? '', /^# Deploy/)
  const get = await fetchPath('/mcp')
  assert.equal(get.status, 405, 'GET: stateless, no stream to open')
})

test("dev takes the page script's reader events and keeps none", async (t) => {
  const { url } = await serveCopy(t)
  const answer = await fetch(new URL('_docs/events', url), {
    method: 'POST',
    body: JSON.stringify({ type: 'view', path: '', screen: 'desktop' }),
  })
  assert.equal(answer.status, 204)
  assert.equal(answer.headers.get('cache-control'), 'no-store')
})

test('a page with errors shows them over its last good version, worded as validate words them', async (t) => {
  const { dir, fetchPath } = await serveCopy(t)
  const good = await (await fetchPath('/guide/setup/')).text()
  assert.match(good, /Create a project/)
  assert.doesNotMatch(good, /docsctl-errors/)
  writeFileSync(
    join(dir, 'guide', 'setup.mdx'),
    '---\ntitle: Setup\n---\n\n## Half-written heading\n\n<Calout>Careful.</Calout>\n\n<Callout>\nNever closed.\n',
  )
  let body = ''
  for (let attempt = 0; attempt < 200 && !body.includes('docsctl-errors'); attempt++) {
    body = await (await fetchPath('/guide/setup/')).text()
    if (!body.includes('docsctl-errors')) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.match(body, /<dialog open id="docsctl-errors"/)
  assert.match(body, /docsctl dev: 2 errors/)
  assert.match(body, /guide\/setup\.mdx:7:1 Unknown component &lt;Calout&gt;; did you mean &lt;Callout&gt;\?/)
  assert.match(body, /guide\/setup\.mdx:9:1 Unclosed `&lt;Callout&gt;`: missing `&lt;\/Callout&gt;`/)
  // Under the overlay: the page as it last built, not the half-written one.
  assert.match(body, /Create a project/)
  assert.doesNotMatch(body, /Half-written heading/)
  assert.match(body, /the page as it last built without errors/)
})

test('a page that never built without errors shows its errors over the page as it is', async (t) => {
  const { fetchPath } = await serveCopy(t, {
    'unlisted.mdx': '---\ntitle: Draft\n---\n\nStart.\n\n<Calout>x</Calout>\n',
  })
  const body = await (await fetchPath('/unlisted/')).text()
  assert.match(body, /docsctl dev: 1 error/)
  assert.match(body, /Start\./)
  assert.match(body, /the page as it builds now/)
})

test("docs.json's error page lists its problems as validate does, did-you-mean included", async (t) => {
  const { fetchPath } = await serveCopy(t, {
    'docs.json': '{ "name": "Acme", "navigaton": { "pages": ["index"] } }\n',
  })
  const page = await fetchPath('/')
  assert.equal(page.status, 500)
  const body = await page.text()
  assert.match(body, /missing required key &quot;navigation&quot;/)
  assert.match(
    body,
    /docs\.json:1:19 unknown key &quot;navigaton&quot;; did you mean &quot;navigation&quot;\?/,
  )
})

test("the browser's own /favicon.ico answers 404 at once on a site without one, without a full build", async (t) => {
  const { fetchPath } = await serveCopy(t)
  assert.equal((await fetchPath('/')).status, 200)
  // A plain "Not found": the site's 404 page would have needed the full build of every page.
  for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/apple-touch-icon-precomposed.png']) {
    const answer = await fetchPath(path)
    assert.equal(answer.status, 404, path)
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/, path)
    assert.equal(await answer.text(), 'Not found')
  }
  // Any other unknown path asks the full build (its search index, llms.txt and 404 page come from it).
  const missing = await fetchPath('/no-such-page/')
  assert.equal(missing.status, 404)
  assert.match(missing.headers.get('content-type') ?? '', /^text\/html/)
})

test('an author favicon.ico is served by dev as by a deployment', async (t) => {
  const { fetchPath } = await serveCopy(t, { 'favicon.ico': 'icon bytes' })
  const answer = await fetchPath('/favicon.ico')
  assert.equal(answer.status, 200)
  assert.equal(await answer.text(), 'icon bytes')
})
