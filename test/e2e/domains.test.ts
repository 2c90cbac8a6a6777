/**
 * Custom domains end to end with the real binaries: a `docs-server` process whose resolver is a DNS
 * server on loopback, `docsctl push` of a fixture site, `docsctl domains add|verify|list|remove`, then
 * the site at docs.example.test/docs by Host header: the home page, a nested page, an asset and every
 * link of the page, all under the prefix. Chromium renders it there with styles, search and navigation.
 */
import assert from 'node:assert/strict'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { writeSession } from '../../cli/credentials.js'
import { fromPackageRoot } from '../../compiler/assets.js'
import { launchChromium, noChromium } from '../chromium.js'
import { cleanEnv, type DocsServer, runCli, startDocsServer } from '../cli/helpers/docs-server.js'
import { startTestDnsServer, type TestDnsServer } from '../server/domains/dns-server.js'

const host = 'docs.example.test'

let dns: TestDnsServer
let server: DocsServer
let work: string
let env: NodeJS.ProcessEnv

before(async () => {
  dns = await startTestDnsServer()
  server = await startDocsServer(['--dns-resolver', dns.address, '--dns-timeout', '1000'])
  work = await mkdtemp(join(tmpdir(), 'docs-domains-e2e-'))
  env = cleanEnv({ DOCSCTL_CONFIG_DIR: join(work, 'config'), DOCSCTL_API_URL: server.apiUrl })
  // A signed-in CLI: the operator command's token, stored where `docsctl login` would put it.
  const token = await server.tokenFor('ada@example.com')
  await writeSession(
    {
      apiUrl: server.apiUrl,
      accessToken: token,
      refreshToken: null,
      expiresAt: null,
      tokenEndpoint: `${server.apiUrl}/oauth/token`,
      email: 'ada@example.com',
    },
    env,
  )
  const created = await fetch(`${server.apiUrl}/projects/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Acme Docs', slug: 'acme-docs' }),
  })
  assert.equal(created.status, 201, await created.text())
})

after(async () => {
  await server?.stop()
  await dns?.close()
  await rm(work, { recursive: true, force: true })
})

interface Fetched {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** GET with a Host header, as a browser reaching the custom domain through the proxy would send it. */
function get(path: string, hostHeader = host): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port: server.port, path, headers: { host: hostHeader } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** Every same-site URL a page points at: links, stylesheets, scripts, images, icons. */
function linksOf(html: string, pageUrl: string): URL[] {
  const urls = [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map(
    (match) => new URL(match[1]!.replace(/&amp;/g, '&'), pageUrl),
  )
  return urls.filter((url) => url.host === host && url.protocol === 'http:')
}

test('push, add docs.example.test/docs, verify in DNS, and serve the site under the prefix', async () => {
  const site = join(work, 'site')
  await cp(fromPackageRoot('fixtures', 'sites', 'full'), site, { recursive: true })
  const push = await runCli(['push', site, '--project', 'acme-docs'], { env })
  assert.equal(push.code, 0, push.stderr)

  const add = await runCli(['domains', 'add', host, '--path-prefix', '/docs', '--project', 'acme-docs'], {
    env,
  })
  assert.equal(add.code, 0, add.stderr)
  assert.match(add.stdout, /Added docs\.example\.test\/docs to acme-docs \(pending\)/)
  // A table a person copies into a DNS console: one aligned row per record.
  assert.match(add.stdout, /^TYPE +NAME +VALUE/m)
  const txt = /^TXT +(_docs-challenge\.docs\.example\.test) +(docs-verify=[0-9a-f]{40})$/m.exec(add.stdout)
  assert.ok(txt, add.stdout)
  const cname = /^CNAME +(docs\.example\.test) +(acme-docs\.localhost)$/m.exec(add.stdout)
  assert.ok(cname, add.stdout)
  assert.match(add.stdout, /docsctl domains verify docs\.example\.test\/docs --project acme-docs/)

  const again = await runCli(['domains', 'add', host, '--path-prefix', '/docs', '--project', 'acme-docs'], {
    env,
  })
  assert.equal(again.code, 1)
  assert.match(again.stderr, /already a domain of acme-docs/)
  const bad = await runCli(['domains', 'add', 'https://docs.example.test', '--project', 'acme-docs'], { env })
  assert.equal(bad.code, 1)
  assert.match(bad.stderr, /hostname: give the host name only, without a scheme/)

  const early = await runCli(['domains', 'verify', `${host}/docs`, '--project', 'acme-docs'], { env })
  assert.equal(early.code, 1)
  assert.match(early.stdout, /Not verified \(failed\): No TXT record at _docs-challenge\.docs\.example\.test/)
  assert.match(early.stdout, /^TXT +_docs-challenge\S+ +docs-verify=\S+ +missing/m)
  assert.equal((await get('/docs/')).status, 404, 'nothing is served before verification')

  dns.set(txt[1]!, 'TXT', [txt[2]!])
  dns.set(cname[1]!, 'CNAME', [cname[2]!])
  const verified = await runCli(['domains', 'verify', host, '--project', 'acme-docs'], { env })
  assert.equal(verified.code, 0, verified.stdout + verified.stderr)
  assert.match(
    verified.stdout,
    /Verified: docs\.example\.test\/docs serves acme-docs at https:\/\/docs\.example\.test\/docs\//,
  )

  const verifiedJson = await runCli(
    ['domains', 'verify', `${host}/docs`, '--json', '--project', 'acme-docs'],
    {
      env,
    },
  )
  assert.equal(verifiedJson.code, 0)
  assert.equal(JSON.parse(verifiedJson.stdout).serving, true)

  const listed = await runCli(['domains', 'list', '--project', 'acme-docs'], { env })
  assert.match(
    listed.stdout,
    /^docs\.example\.test\/docs +verified +serving https:\/\/docs\.example\.test\/docs\/$/m,
  )
  const json = JSON.parse(
    (await runCli(['domains', 'list', '--json', '--project', 'acme-docs'], { env })).stdout,
  )
  assert.equal(json[0].status, 'verified')
  assert.equal(json[0].records[0].value, txt[2])

  // The site under the prefix: home, a nested page, an asset, and every link of the home page.
  const home = await get('/docs/')
  assert.equal(home.status, 200)
  assert.match(home.body, /<title>[^<]*Acme Docs/)
  assert.match(String(home.headers.link), /<https:\/\/docs\.example\.test\/docs\/>; rel="canonical"/)
  const nested = await get('/docs/concepts/deployments/')
  assert.equal(nested.status, 200)
  assert.match(nested.body, /Deployments/)
  const stylesheet = /href="([^"]+\.css)"/.exec(home.body)?.[1]
  assert.ok(stylesheet)
  const css = await get(new URL(stylesheet, `http://${host}/docs/`).pathname)
  assert.equal(css.status, 200)
  assert.match(String(css.headers['content-type']), /^text\/css/)
  const links = linksOf(home.body, `http://${host}/docs/`)
  assert.ok(links.length > 10, `only ${links.length} links`)
  const broken: string[] = []
  for (const url of links) {
    if (!url.pathname.startsWith('/docs/')) broken.push(`${url.pathname}: outside the prefix`)
    const answer = await get(url.pathname + url.search)
    if (answer.status !== 200) broken.push(`${url.pathname}: ${answer.status}`)
  }
  assert.deepEqual(broken, [])
  assert.match(
    (await get('/docs/sitemap.xml')).body,
    /<loc>https:\/\/docs\.example\.test\/docs\/concepts\/deployments\/<\/loc>/,
  )
  assert.match(
    (await get('/docs/robots.txt')).body,
    /Sitemap: https:\/\/docs\.example\.test\/docs\/sitemap\.xml/,
  )
  assert.equal((await get('/')).status, 404, 'outside the prefix')
  assert.equal((await get('/quickstart/')).status, 404, 'outside the prefix')

  // The on-demand TLS question, on the API host.
  assert.equal((await fetch(`${server.apiUrl}/tls/ask?domain=${host}`)).status, 200)
  assert.equal((await fetch(`${server.apiUrl}/tls/ask?domain=other.example.test`)).status, 404)
})

test('in Chromium the site at the prefix renders with its styles, search and navigation', {
  skip: noChromium,
}, async (t) => {
  // docs.example.test reaches the test server, as the DNS records would send it.
  const browser = await launchChromium([`--host-resolver-rules=MAP ${host} 127.0.0.1`])
  t.after(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const failed: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
  })
  const origin = `http://${host}:${server.port}`
  await page.goto(`${origin}/docs/`)
  assert.equal(await page.textContent('h1'), 'Introduction')
  // The stylesheet applied: the theme sets the body's margin to 0 (a browser's own default is 8px).
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).margin), '0px')
  assert.ok(await page.isVisible('.d-sidebar'))

  await page.keyboard.press('Control+k')
  assert.ok(await page.isVisible('.d-search-dialog'))
  await page.fill('#d-search-input', 'promotion')
  await page.waitForSelector('.d-search-results a')
  const hit = await page.getAttribute('.d-search-results a', 'href')
  assert.ok(hit?.startsWith(`${origin}/docs/`), hit ?? '')
  await Promise.all([page.waitForURL(`${origin}/docs/concepts/deployments/`), page.keyboard.press('Enter')])
  assert.equal(await page.textContent('h1'), 'Deployments')

  await Promise.all([
    page.waitForURL(`${origin}/docs/quickstart/`),
    page.click('.d-sidebar a[href$="quickstart/"]'),
  ])
  assert.match((await page.textContent('h1')) ?? '', /Quickstart/)
  assert.deepEqual(errors, [])
  assert.deepEqual(failed, [])
})

test('remove stops serving at once', async () => {
  assert.equal((await get('/docs/')).status, 200)
  const removed = await runCli(['domains', 'remove', `${host}/docs`, '--project', 'acme-docs'], { env })
  assert.equal(removed.code, 0, removed.stderr)
  assert.match(removed.stdout, /Removed docs\.example\.test\/docs from acme-docs/)
  assert.equal((await get('/docs/')).status, 404)
  assert.equal((await fetch(`${server.apiUrl}/tls/ask?domain=${host}`)).status, 404)
  const other = await runCli(['domains', 'add', 'Bücher.example.test', '--json', '--project', 'acme-docs'], {
    env,
  })
  assert.equal(other.code, 0, other.stderr)
  assert.equal(JSON.parse(other.stdout).hostname, 'xn--bcher-kva.example.test')
  const unverified = await runCli(
    ['domains', 'verify', 'bücher.example.test', '--json', '--project', 'acme-docs'],
    {
      env,
    },
  )
  assert.equal(unverified.code, 1, 'not verified: a non-zero exit even with --json')
  assert.equal(JSON.parse(unverified.stdout).failure.reason, 'record_missing')
  const removedJson = await runCli(
    ['domains', 'remove', 'xn--bcher-kva.example.test', '--json', '--project', 'acme-docs'],
    {
      env,
    },
  )
  assert.equal(removedJson.code, 0, removedJson.stderr)
  assert.equal(JSON.parse(removedJson.stdout).removed.hostname, 'xn--bcher-kva.example.test')
  const none = await runCli(['domains', 'list', '--project', 'acme-docs'], { env })
  assert.match(none.stdout, /No custom domains for acme-docs/)
  const unknown = await runCli(['domains', 'verify', 'nope.example.test', '--project', 'acme-docs'], { env })
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /No domain nope\.example\.test in acme-docs/)
})
