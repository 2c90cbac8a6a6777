/**
 * Headers that keep script off a site origin: the build's Content-Security-Policy on pages, a
 * sandbox on SVG, XML and HTML files that are not pages, and one Host header a request.
 */
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { test } from 'node:test'
import { SANDBOXED_FILE_POLICY, sitePagePolicy } from '../../../compiler/security-headers.js'
import { verifiedDomain } from '../domains/dns-server.js'
import { createProject, deploy, fixtureSite, signIn, testApp } from '../helper.js'
import { page, publish } from './publish.js'

const policy = sitePagePolicy({ inlineScripts: ['console.log(1)'] })

async function siteApp(t: Parameters<typeof testApp>[0]) {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  await publish(
    app,
    'acme',
    {
      'index.html': page('Home'),
      '404.html': page('Not found'),
      'images/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'feed.xml': '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
      'extra/raw.html': '<script>alert(1)</script>',
      'images/photo.png': 'png bytes',
    },
    true,
    policy,
  )
  const get = (url: string, host = 'acme.localhost:8080') =>
    app.inject({ method: 'GET', url, headers: { host } })
  return { app, token, get }
}

test('pages carry the build policy; SVG, XML and non-page HTML files are sandboxed', async (t) => {
  const { get } = await siteApp(t)
  const home = await get('/')
  assert.equal(home.headers['content-security-policy'], policy)
  assert.match(policy, /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/)
  for (const directive of [
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ])
    assert.ok(policy.includes(directive), directive)
  const missing = await get('/nope/')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.headers['content-security-policy'], policy)

  for (const url of ['/images/logo.svg', '/feed.xml', '/extra/raw.html']) {
    const file = await get(url)
    assert.equal(file.statusCode, 200, url)
    assert.equal(file.headers['content-security-policy'], SANDBOXED_FILE_POLICY, url)
    assert.equal(file.headers['x-content-type-options'], 'nosniff', url)
  }
  assert.equal(
    SANDBOXED_FILE_POLICY,
    "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
  )
  const photo = await get('/images/photo.png')
  assert.equal(photo.headers['content-security-policy'], undefined)
  assert.equal(photo.headers['x-content-type-options'], 'nosniff')
})

test('a deployment built before policies existed gets one that allows no inline script', async (t) => {
  const app = await testApp(t)
  await createProject(app, await signIn(app), 'older')
  await publish(app, 'older', { 'index.html': page('Old') })
  const home = await app.inject({ url: '/', headers: { host: 'older.localhost:8080' } })
  assert.equal(home.headers['content-security-policy'], sitePagePolicy({ inlineScripts: [] }))
  assert.match(home.headers['content-security-policy'] as string, /script-src 'self'; /)
})

test('a policy stored with an older deployment cannot add a directive: it is served rebuilt', async (t) => {
  const app = await testApp(t)
  await createProject(app, await signIn(app), 'older')
  // What a build stored when the PostHog host went into the policy as typed.
  const injected = sitePagePolicy({ inlineScripts: ['console.log(1)'] }).replace(
    '; style-src',
    " https://x/;script-src-attr 'unsafe-inline' https://x/; style-src",
  )
  await publish(app, 'older', { 'index.html': page('Old'), '404.html': page('Gone') }, true, injected)
  for (const url of ['/', '/missing/']) {
    const answer = await app.inject({ url, headers: { host: 'older.localhost:8080' } })
    assert.equal(answer.headers['content-security-policy'], policy, url)
    assert.doesNotMatch(String(answer.headers['content-security-policy']), /script-src-attr/)
  }
})

test('no site and a site with nothing live yet get one answer: whether a slug exists does not leak', async (t) => {
  const { app, token, get } = await siteApp(t)
  await createProject(app, token, 'fresh')
  const answerOf = async (host: string, url = '/', method: 'GET' | 'HEAD' = 'GET') => {
    const response = await app.inject({ method, url, headers: { host } })
    const { date: _date, connection: _connection, ...headers } = response.headers
    return { status: response.statusCode, headers, body: response.body }
  }
  const nobody = await answerOf('nobody.localhost:8080')
  assert.equal(nobody.status, 404)
  assert.equal(nobody.headers['cache-control'], 'no-store')
  assert.match(nobody.body, /<h1>No docs site here<\/h1>/)
  assert.doesNotMatch(nobody.body, /nobody/, 'nothing of the request is in the page')
  for (const [host, url] of [
    ['fresh.localhost:8080', '/'],
    ['fresh.localhost:8080', '/guide/'],
    ['fresh.localhost:8080', '/sitemap.xml'],
    ['0123456789abcdef0123456789abcdef--fresh.localhost:8080', '/'],
    ['0123456789abcdef0123456789abcdef--nobody.localhost:8080', '/'],
    ['deep.fresh.localhost:8080', '/'],
  ] as const)
    assert.deepEqual(await answerOf(host, url), nobody, `${host}${url}`)
  assert.deepEqual(
    await answerOf('fresh.localhost:8080', '/', 'HEAD'),
    await answerOf('nobody.localhost:8080', '/', 'HEAD'),
  )

  // A verified custom domain whose project has nothing live answers like a name nobody claimed.
  await verifiedDomain(app.repos, 'fresh', 'docs.fresh.example')
  assert.deepEqual(await answerOf('docs.fresh.example'), await answerOf('docs.nobody.example'))
  assert.deepEqual(await answerOf('docs.fresh.example'), nobody)
  assert.equal((await get('/', 'acme.localhost:8080')).statusCode, 200, 'a live site still answers')

  const hostile = await get('/', 'x<img src=x onerror=alert(1)>.example.com')
  assert.equal(hostile.statusCode, 404)
  assert.doesNotMatch(hostile.body, /<img/, 'the Host header is escaped in the page')
})

/** Sends raw HTTP/1.1 and resolves with the status line. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''))
    socket.on('error', reject)
  })
}

test('a request with two Host headers is refused on sites and the API alike', async (t) => {
  const { app } = await siteApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const ask = (hosts: string[], path = '/') =>
    rawRequest(
      port,
      `GET ${path} HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
    )
  assert.equal(await ask(['acme.localhost:8080']), 'HTTP/1.1 200 OK')
  assert.equal(await ask(['acme.localhost:8080', 'other.localhost:8080']), 'HTTP/1.1 400 Bad Request')
  assert.equal(await ask(['localhost:8080', 'acme.localhost:8080'], '/health'), 'HTTP/1.1 400 Bad Request')
  assert.equal(await ask(['localhost:8080'], '/health'), 'HTTP/1.1 200 OK')
})

test('a real build: the theme assets are immutable, an author file with a hash-like name is not', async (t) => {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'built')
  const files = await fixtureSite('minimal')
  // In the public folder, so the build publishes it though no page shows it.
  files.set('public/screenshot-20240101.png', Buffer.from('png bytes'))
  const deployed = await deploy(app, token, 'built', files)
  assert.equal(deployed.finalized.statusCode, 200, deployed.finalized.body)
  const get = (url: string) => app.inject({ url, headers: { host: 'built.localhost:8080' } })
  const home = await get('/')
  assert.match(home.headers['content-security-policy'] as string, /script-src 'self' 'sha256-/)
  const css = home.body.match(/href="(_assets\/site\.[0-9a-f]+\.css)"/)?.[1]
  assert.ok(css)
  assert.equal((await get(`/${css}`)).headers['cache-control'], 'public, max-age=31536000, immutable')
  const screenshot = await get('/public/screenshot-20240101.png')
  assert.equal(screenshot.statusCode, 200)
  assert.equal(
    screenshot.headers['cache-control'],
    'public, max-age=0, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400',
  )
})
