/**
 * A spec that docs.json names by URL is fetched by the CLI (from a real HTTP server on loopback here)
 * into the site's files, so the build — on this machine or on the server, which never fetches —
 * generates its pages; a URL that cannot be fetched is a warning line, and the build says what to do.
 * docs.json does not choose where docsctl connects: only hosts the person allowed, or said yes to, are
 * fetched; a private or loopback host only when named; a redirect there never.
 */
import assert from 'node:assert/strict'
import type { LookupAddress } from 'node:dns'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { fetchRemoteSpecs, isPublicAddress, specFetchPolicy } from '../../cli/remote-specs.js'
import { buildSite } from '../../compiler/build.js'
import { fetchedSpecPath } from '../../compiler/openapi/sources.js'

const spec = `openapi: 3.0.3
info: { title: Remote, version: '1' }
paths:
  /runs/{id}:
    get:
      operationId: getRun
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: The run. } }
`

test('spec URLs in docs.json are fetched into the upload and become pages', async (t) => {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    if (request.url === '/openapi.yaml')
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(spec)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const good = `${origin}/openapi.yaml`
  const missing = `${origin}/gone.yaml`
  const files = new Map<string, Uint8Array>([
    [
      'docs.json',
      new TextEncoder().encode(
        JSON.stringify({
          name: 'Remote',
          api: { openapi: good },
          navigation: {
            groups: [
              { group: 'Runs', openapi: { source: good, directory: 'runs' } },
              { group: 'Gone', openapi: missing },
            ],
          },
        }),
      ),
    ],
  ])
  // The test server is on loopback, which is fetched only when named.
  const problems = await fetchRemoteSpecs(files, { allowedHosts: ['127.0.0.1'] })
  assert.deepEqual(problems, [
    `docs.json: cannot fetch the OpenAPI document ${missing} (HTTP 404); its pages are left out`,
  ])
  assert.deepEqual(requests.sort(), ['/gone.yaml', '/openapi.yaml'], 'each URL fetched once')
  assert.equal(new TextDecoder().decode(files.get(fetchedSpecPath(good))), spec)

  const result = await buildSite(files, { mode: 'lenient' })
  assert.ok(
    result.files.has('runs/get-run/index.html'),
    'the operation page is generated under the directory',
  )
  assert.deepEqual(
    result.diagnostics.map((diagnostic) => diagnostic.rule),
    ['openapi-not-fetched'],
    'the unfetched spec is reported once',
  )
})

/** A real HTTP server on loopback that answers `routes` by path and records every request. */
async function specServer(
  t: { after: (fn: () => void) => void },
  routes: Record<string, { status: number; headers?: Record<string, string>; body?: string }>,
) {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.headers.host}${request.url}`)
    const route = routes[request.url ?? '']
    if (route) response.writeHead(route.status, route.headers ?? {}).end(route.body ?? '')
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  return { requests, port: (server.address() as AddressInfo).port }
}

const siteNaming = (...urls: string[]) =>
  new Map<string, Uint8Array>([
    [
      'docs.json',
      new TextEncoder().encode(
        JSON.stringify({
          name: 'Remote',
          navigation: { groups: urls.map((url, i) => ({ group: `Spec ${i}`, openapi: url })) },
        }),
      ),
    ],
  ])

/** A resolver for names that do not exist: each lookup of a name answers the next of its addresses. */
function resolver(answers: Record<string, string[]>) {
  const lookups: string[] = []
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    lookups.push(hostname)
    const next = answers[hostname]?.shift()
    if (!next) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return [{ address: next, family: next.includes(':') ? 6 : 4 }]
  }
  return { resolve, lookups }
}

test('a host nobody allowed is not fetched, and the line names the flag that allows it', async (t) => {
  const server = await specServer(t, { '/openapi.yaml': { status: 200, body: spec } })
  const url = `http://127.0.0.1:${server.port}/openapi.yaml`
  const files = siteNaming(url)
  const questions: string[] = []
  const problems = await fetchRemoteSpecs(files, {
    allowedHosts: [],
    // Loopback is refused before anyone is asked: a yes does not open it.
    ask: async ({ host }) => {
      questions.push(host)
      return true
    },
  })
  assert.deepEqual(problems, [
    `docs.json: not fetching the OpenAPI document ${url}: 127.0.0.1:${server.port} is a private or loopback address (127.0.0.1); pass --allow-spec-host 127.0.0.1:${server.port} to fetch from it; its pages are left out`,
  ])
  assert.deepEqual(server.requests, [], 'no request reached the server')
  assert.deepEqual(questions, [])
  assert.equal(files.has(fetchedSpecPath(url)), false)

  // Named with its port, through the variable: fetched.
  const named = specFetchPolicy({
    flags: undefined,
    env: { DOCSCTL_ALLOW_SPEC_HOSTS: `example.com, 127.0.0.1:${server.port}` },
    interactive: false,
  })
  assert.deepEqual(named.allowedHosts, ['example.com', `127.0.0.1:${server.port}`])
  const written = ['Specs.Example.com.', 'https://api.example.com/v1', '::1', '[::1]:8080']
  assert.deepEqual(specFetchPolicy({ flags: written, env: {}, interactive: false }).allowedHosts, [
    'specs.example.com',
    'api.example.com',
    '[::1]',
    '[::1]:8080',
  ])
  assert.deepEqual(await fetchRemoteSpecs(files, named), [])
  assert.equal(new TextDecoder().decode(files.get(fetchedSpecPath(url))), spec)
  assert.deepEqual(server.requests, [`127.0.0.1:${server.port}/openapi.yaml`])
})

test('a public host not allowed is asked about in a terminal, and refused without one', async () => {
  const url = 'https://specs.example.test/openapi.yaml'
  const { resolve } = resolver({ 'specs.example.test': ['203.0.113.9', '203.0.113.9'] })
  const refused = await fetchRemoteSpecs(siteNaming(url), { allowedHosts: [], resolve })
  assert.deepEqual(refused, [
    `docs.json: not fetching the OpenAPI document ${url}: specs.example.test is not an allowed spec host; pass --allow-spec-host specs.example.test or add it to DOCSCTL_ALLOW_SPEC_HOSTS; its pages are left out`,
  ])
  const asked: { url: string; host: string }[] = []
  const declined = await fetchRemoteSpecs(siteNaming(url, `${url}?second`), {
    allowedHosts: [],
    resolve,
    ask: async (question) => {
      asked.push(question)
      return false
    },
  })
  assert.deepEqual(asked, [{ url, host: 'specs.example.test' }], 'asked once for the host')
  assert.equal(declined.length, 2)
})

test('a name that resolves to a public address when checked and to loopback when connecting is refused', async (t) => {
  const server = await specServer(t, { '/openapi.yaml': { status: 200, body: spec } })
  const url = `http://rebind.example.test:${server.port}/openapi.yaml`
  const { resolve, lookups } = resolver({ 'rebind.example.test': ['203.0.113.9', '127.0.0.1'] })
  const problems = await fetchRemoteSpecs(siteNaming(url), {
    allowedHosts: [],
    resolve,
    ask: async () => true,
  })
  assert.deepEqual(problems, [
    `docs.json: cannot fetch the OpenAPI document ${url} (rebind.example.test resolved to 127.0.0.1, a private or loopback address); its pages are left out`,
  ])
  assert.deepEqual(
    lookups,
    ['rebind.example.test', 'rebind.example.test'],
    'checked, then checked again to connect',
  )
  assert.deepEqual(server.requests, [])
})

test('redirects are followed only to allowed hosts, never to a private address', async (t) => {
  const target = await specServer(t, { '/openapi.yaml': { status: 200, body: spec } })
  const server = await specServer(t, {
    '/to-loopback': { status: 302, headers: { location: `http://localhost:${target.port}/openapi.yaml` } },
    '/to-metadata': { status: 301, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    '/to-public': { status: 307, headers: { location: 'https://elsewhere.example.test/openapi.yaml' } },
    '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
    '/openapi.yaml': { status: 200, body: spec },
  })
  const origin = `http://127.0.0.1:${server.port}`
  const { resolve } = resolver({
    localhost: ['127.0.0.1'],
    'elsewhere.example.test': ['203.0.113.10'],
  })
  const files = siteNaming(
    `${origin}/to-loopback`,
    `${origin}/to-metadata`,
    `${origin}/to-public`,
    `${origin}/to-file`,
  )
  const problems = await fetchRemoteSpecs(files, {
    // Even the hosts the redirects go to are named: a redirect into a private address is never followed.
    allowedHosts: [`127.0.0.1:${server.port}`, `localhost:${target.port}`, '169.254.169.254'],
    resolve,
  })
  assert.deepEqual(problems.sort(), [
    `docs.json: not fetching the OpenAPI document ${origin}/to-file: it redirects to file:///etc/passwd, which is not an http(s) URL; its pages are left out`,
    `docs.json: not fetching the OpenAPI document ${origin}/to-loopback: it redirects to http://localhost:${target.port}/openapi.yaml, a private or loopback address (127.0.0.1), and docsctl never follows a redirect there; its pages are left out`,
    `docs.json: not fetching the OpenAPI document ${origin}/to-metadata: it redirects to http://169.254.169.254/latest/meta-data/, a private or loopback address (169.254.169.254), and docsctl never follows a redirect there; its pages are left out`,
    `docs.json: not fetching the OpenAPI document ${origin}/to-public: elsewhere.example.test is not an allowed spec host; pass --allow-spec-host elsewhere.example.test or add it to DOCSCTL_ALLOW_SPEC_HOSTS; its pages are left out`,
  ])
  assert.deepEqual(target.requests, [], 'the loopback target was never reached')
  assert.equal(server.requests.length, 4, 'one request for each redirect, none followed')
})

test('only public addresses pass as public', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    'localhost',
  ])
    assert.equal(isPublicAddress(address), false, address)
  for (const address of [
    '93.184.216.34',
    '203.0.113.9',
    '2606:4700::1111',
    '8.8.8.8',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])
    assert.equal(isPublicAddress(address), true, address)
})
