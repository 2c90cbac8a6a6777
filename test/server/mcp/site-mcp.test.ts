/**
 * Each site's MCP endpoint against a listening docs-server, driven by the SDK's own client over real
 * HTTP: the live host, a preview host and a custom domain under a prefix each see their own
 * deployment's pages and never another project's; bad bodies get JSON-RPC errors, never a 500.
 */
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FastifyInstance } from 'fastify'
import { buildSite } from '../../../compiler/build.js'
import { MCP_PAGES_PATH } from '../../../compiler/outputs/mcp-pages.js'
import type { BuildCache } from '../../../compiler/types.js'
import { verifiedDomain } from '../domains/dns-server.js'
import { createProject, fixtureSite, signIn, testApp } from '../helper.js'
import { publish } from '../sites/publish.js'
import { loopbackFetch } from './loopback-fetch.js'

const encoder = new TextEncoder()
let lastCache: BuildCache | undefined

/** A built site as the path → text map `publish` stores. */
async function built(files: Map<string, Uint8Array>, cache?: BuildCache): Promise<Record<string, string>> {
  const result = await buildSite(files, { mode: 'lenient', ...(cache ? { cache } : {}) })
  lastCache = result.cache
  assert.ok(result.ok, JSON.stringify(result.diagnostics))
  return Object.fromEntries(
    [...result.files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('utf8')]),
  )
}

/** Another user's project, with a page whose words appear nowhere in the first one. */
const otherSite = new Map<string, Uint8Array>([
  [
    'docs.json',
    encoder.encode(
      JSON.stringify({
        name: 'Other Docs',
        navigation: { groups: [{ group: 'Plans', pages: ['index', 'secret-plans'] }] },
      }),
    ),
  ],
  ['index.mdx', encoder.encode('---\ntitle: Other home\n---\n\nNothing here.\n')],
  [
    'secret-plans.mdx',
    encoder.encode('---\ntitle: Secret plans\n---\n\nThe zebrafish migration starts at dawn.\n'),
  ],
])

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as AddressInfo).port
}

async function connect(t: { after: (fn: () => Promise<void>) => void }, port: number, url: string) {
  const client = new Client({ name: 'docs-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: loopbackFetch(port) }))
  t.after(() => client.close())
  return client
}

interface SearchResults {
  results: { title: string; url: string; section?: string; passage: string }[]
}
interface PageList {
  total: number
  pages: { title: string; url: string; slug: string; path: string[] }[]
  nextOffset?: number
}
const textOf = (result: unknown): string =>
  ((result as { content: { type: string; text: string }[] }).content[0]?.text ?? '') as string

test('the SDK client searches, reads and lists pages on the live host, a preview host and a custom domain prefix', async (t) => {
  const started = performance.now()
  const app = await testApp(t, 'sqlite', { baseDomain: 'docs.test' })
  const token = await signIn(app)
  const other = await signIn(app, 'grace@example.com')
  await createProject(app, token, 'acme')
  await createProject(app, other, 'other')
  const acmeSource = await fixtureSite('full')
  await publish(app, 'acme', await built(acmeSource))
  const previewSource = new Map(acmeSource)
  previewSource.set(
    'quickstart.mdx',
    Buffer.from('---\ntitle: Quickstart\n---\n\nThe kingfisher preview explains installing.\n'),
  )
  // From the first build's cache: only the changed page renders again.
  const preview = await publish(app, 'acme', await built(previewSource, lastCache), false)
  t.diagnostic(`built and published in ${Math.round(performance.now() - started)} ms`)
  await publish(app, 'other', await built(otherSite))
  await verifiedDomain(app.repos, 'acme', 'example.test', '/docs')
  await verifiedDomain(app.repos, 'other', 'example.test')
  const port = await listen(app)

  const sites = [
    { name: 'live host', endpoint: 'http://acme.docs.test/mcp', base: 'https://acme.docs.test' },
    {
      name: 'preview host',
      endpoint: `http://${preview.previewToken}--acme.docs.test/mcp`,
      base: `https://${preview.previewToken}--acme.docs.test`,
    },
    {
      name: 'custom domain prefix',
      endpoint: 'http://example.test/docs/mcp',
      base: 'https://example.test/docs',
    },
  ]
  for (const site of sites) {
    const client = await connect(t, port, site.endpoint)
    assert.equal(client.getServerVersion()?.name, 'Acme Docs', site.name)
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort()
    assert.deepEqual(tools, ['get_page', 'list_pages', 'search'], site.name)

    const search = (await client.callTool({ name: 'search', arguments: { query: 'roll back' } }))
      .structuredContent as unknown as SearchResults
    assert.equal(search.results[0]?.title, 'Deployments', site.name)
    assert.equal(search.results[0]?.url, `${site.base}/concepts/deployments/`, site.name)
    assert.equal(search.results[0]?.section, 'Concepts', site.name)
    assert.match(search.results[0]?.passage ?? '', /roll back/i, site.name)

    const page = await client.callTool({
      name: 'get_page',
      arguments: { page: `${site.base}/concepts/deployments/` },
    })
    assert.equal(page.isError, undefined, site.name)
    assert.match(textOf(page), /^# Deployments/, site.name)
    assert.match(textOf(page), /promote an earlier deployment/, site.name)
    for (const reference of [
      'concepts/deployments',
      '/concepts/deployments.md',
      `${new URL(site.base).pathname.replace(/\/$/, '')}/concepts/deployments/`,
    ]) {
      const again = await client.callTool({ name: 'get_page', arguments: { page: reference } })
      assert.match(textOf(again), /^# Deployments/, `${site.name}: ${reference}`)
    }

    const first = (await client.callTool({ name: 'list_pages', arguments: { limit: 2 } }))
      .structuredContent as unknown as PageList
    assert.equal(first.pages.length, 2, site.name)
    assert.equal(first.nextOffset, 2, site.name)
    assert.deepEqual(first.pages[1], {
      title: 'Quickstart',
      url: `${site.base}/quickstart/`,
      slug: 'quickstart',
      path: ['Guides', 'Getting Started'],
      ...(site.name === 'preview host' ? {} : { description: 'Deploy your first site.' }),
    })
    const rest = (await client.callTool({ name: 'list_pages', arguments: { offset: 2, limit: 200 } }))
      .structuredContent as unknown as PageList
    assert.equal(rest.nextOffset, undefined, site.name)
    const slugs = [...first.pages, ...rest.pages].map((listed) => listed.slug)
    assert.equal(slugs.length, first.total, site.name)
    assert.ok(slugs.includes('concepts/deployments'), site.name)
    assert.ok(!slugs.includes('concepts/internals'), `${site.name}: a hidden page is not listed`)

    // The other project's pages never appear here, whatever the client asks.
    const foreign = (await client.callTool({ name: 'search', arguments: { query: 'zebrafish' } }))
      .structuredContent as unknown as SearchResults
    assert.deepEqual(foreign.results, [], site.name)
    const foreignPage = await client.callTool({ name: 'get_page', arguments: { page: 'secret-plans' } })
    assert.equal(foreignPage.isError, true, site.name)
    assert.ok(!slugs.includes('secret-plans'), site.name)
    for (const outside of [
      '../other/secret-plans',
      'https://example.test/secret-plans/',
      '%2e%2e/secret-plans',
    ]) {
      const escaped = await client.callTool({ name: 'get_page', arguments: { page: outside } })
      assert.equal(escaped.isError, true, `${site.name}: ${outside}`)
    }

    const resources = (await client.listResources()).resources.map((resource) => resource.uri)
    assert.deepEqual(resources, [`${site.base}/llms.txt`, `${site.base}/llms-full.txt`], site.name)
    const llms = await client.readResource({ uri: `${site.base}/llms.txt` })
    assert.match((llms.contents[0] as { text: string }).text, /^# Acme Docs/, site.name)

    // The preview serves the preview deployment's pages, the live site the live one's.
    const kingfisher = (await client.callTool({ name: 'search', arguments: { query: 'kingfisher' } }))
      .structuredContent as unknown as SearchResults
    assert.equal(kingfisher.results.length, site.name === 'preview host' ? 1 : 0, site.name)
  }

  // The other project, at the root of the same custom domain, sees only its own pages.
  const otherClient = await connect(t, port, 'http://example.test/mcp')
  assert.equal(otherClient.getServerVersion()?.name, 'Other Docs')
  const zebra = (await otherClient.callTool({ name: 'search', arguments: { query: 'zebrafish' } }))
    .structuredContent as unknown as SearchResults
  assert.deepEqual(
    zebra.results.map((result) => result.url),
    ['https://example.test/secret-plans/'],
  )
  const acmeFromOther = (await otherClient.callTool({ name: 'search', arguments: { query: 'deployments' } }))
    .structuredContent as unknown as SearchResults
  assert.deepEqual(acmeFromOther.results, [])
  t.diagnostic(`three hosts and a second project in ${Math.round(performance.now() - started)} ms`)
})

test('bad requests to /mcp get JSON-RPC errors with 4xx, never a 500; a turned-off MCP and the rate limit', async (t) => {
  const app = await testApp(t, 'sqlite', {
    baseDomain: 'docs.test',
    mcpRateLimitPerMinute: 12,
  })
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  await createProject(app, token, 'quiet')
  await publish(app, 'acme', {
    [MCP_PAGES_PATH]: JSON.stringify({ name: 'Acme', pages: [] }),
    'index.html': '<!doctype html><title>Home</title>',
  })
  // Built with mcp.enabled false: no _mcp/pages.json, so no endpoint, and GET /mcp is an ordinary miss.
  await publish(app, 'quiet', { 'index.html': '<!doctype html><title>Quiet</title>', '404.html': 'gone' })
  const port = await listen(app)
  const send = (host: string, init: RequestInit & { headers?: Record<string, string> }) =>
    loopbackFetch(port)(`http://${host}/mcp`, {
      method: 'POST',
      ...init,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...init.headers,
      },
    })
  const error = async (response: Response) =>
    ((await response.json()) as { jsonrpc: string; error: { code: number; message: string } }).error

  const malformed = await send('acme.docs.test', { body: '{"jsonrpc": "2.0", "method": ' })
  assert.equal(malformed.status, 400)
  assert.equal((await error(malformed)).code, -32700)

  const notJsonRpc = await send('acme.docs.test', { body: JSON.stringify({ hello: 'world' }) })
  assert.equal(notJsonRpc.status, 400)
  assert.equal((await error(notJsonRpc)).code, -32700)

  const oversized = await send('acme.docs.test', {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(100_000) },
    }),
  })
  assert.equal(oversized.status, 413)
  assert.equal((await error(oversized)).code, -32600)

  const unknownMethod = await send('acme.docs.test', {
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/delete', params: {} }),
  })
  assert.equal(unknownMethod.status, 200, 'a JSON-RPC error inside a normal answer')
  assert.equal((await error(unknownMethod)).code, -32601)

  const wrongArguments = await send('acme.docs.test', {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'x'.repeat(1000), limit: 500 } },
    }),
  })
  assert.equal(wrongArguments.status, 200)
  const refused = (await wrongArguments.json()) as {
    result?: { isError?: boolean; content: { text: string }[] }
  }
  assert.equal(refused.result?.isError, true, 'arguments past the bounds are refused, not served')

  const get = await send('acme.docs.test', { method: 'GET', body: null })
  assert.equal(get.status, 405)
  assert.equal(get.headers.get('allow'), 'POST, OPTIONS')

  const preflight = await send('acme.docs.test', { method: 'OPTIONS', body: null })
  assert.equal(preflight.status, 204)
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*')

  const off = await send('quiet.docs.test', {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
  assert.equal(off.status, 404)
  assert.match((await error(off)).message, /turned its MCP server off/)
  const offPage = await send('quiet.docs.test', { method: 'GET', body: null })
  assert.equal(offPage.status, 404)
  assert.match(await offPage.text(), /gone$/)

  const nowhere = await send('nobody.docs.test', { body: '{}' })
  assert.equal(nowhere.status, 405, 'a host with no site answers as the site server does')

  // 12 a minute per address: the POSTs above that reached the endpoint used 5.
  const ping = () =>
    send('acme.docs.test', { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })
  const statuses: number[] = []
  for (let i = 0; i < 7; i += 1) statuses.push((await ping()).status)
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200])
  const limited = await ping()
  assert.equal(limited.status, 429)
  assert.ok(Number(limited.headers.get('retry-after')) >= 1)
  assert.equal((await error(limited)).code, -32000)
})

test('each call of a JSON-RPC batch counts against the rate limit; a batch over it is refused whole', async (t) => {
  const app = await testApp(t, 'sqlite', { baseDomain: 'docs.test', mcpRateLimitPerMinute: 12 })
  await createProject(app, await signIn(app), 'acme')
  await publish(app, 'acme', {
    [MCP_PAGES_PATH]: JSON.stringify({ name: 'Acme', pages: [] }),
    'index.html': '<!doctype html><title>Home</title>',
  })
  const port = await listen(app)
  const batch = (size: number, from = 1) =>
    loopbackFetch(port)('http://acme.docs.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(
        Array.from({ length: size }, (_, index) => ({ jsonrpc: '2.0', id: from + index, method: 'ping' })),
      ),
    })

  const five = await batch(5)
  assert.equal(five.status, 200)
  const answers = (await five.json()) as { id: number; result?: object }[]
  assert.deepEqual(
    answers.map((answer) => answer.id).sort((a, b) => a - b),
    [1, 2, 3, 4, 5],
  )

  // 5 of 12 used: a batch of 8 is over the remaining 7, so none of its calls runs.
  const eight = await batch(8, 10)
  assert.equal(eight.status, 429)
  assert.ok(Number(eight.headers.get('retry-after')) >= 1)
  const refused = (await eight.json()) as { error: { code: number; message: string }; id: null }
  assert.equal(refused.error.code, -32000)
  assert.match(refused.error.message, /a batch of 8 calls is over the limit/)

  // The address's budget for this minute is spent: even one call is refused.
  const single = await batch(1, 30)
  assert.equal(single.status, 429)
})
