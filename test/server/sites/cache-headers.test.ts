/**
 * The headers a shared cache (a CDN, deploy/varnish.vcl) decides by: Cache-Control with s-maxage,
 * stale-while-revalidate and stale-if-error as the settings say, immutable only for hashed assets,
 * Vary only on what an answer varies on, 304 for every form of If-None-Match, and nothing public on a
 * preview or an address that serves no site.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { etagMatches } from '../../../server/sites/cache-headers.js'
import { createProject, signIn, testApp } from '../helper.js'
import { hashedCss, page, publish } from './publish.js'

const site = {
  'index.html': page('Home'),
  'index.md': '# Home\n',
  'plain/index.html': page('No Markdown export'),
  '404.html': page('Not found'),
  _redirects: '/old/ /plain/ 301\n',
  [hashedCss]: 'body{color:red}'.repeat(50),
  'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
}

async function siteApp(t: Parameters<typeof testApp>[0]) {
  const app = await testApp(t, 'sqlite', {
    cdnMaxAgeSeconds: 600,
    cdnStaleWhileRevalidateSeconds: 30,
    cdnStaleIfErrorSeconds: 7200,
  })
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  const published = await publish(app, 'acme', site)
  const get = (url: string, headers: Record<string, string> = {}, host = 'acme.localhost:8080') =>
    app.inject({ method: 'GET', url, headers: { host, ...headers } })
  return { app, get, ...published }
}

const shared = 'public, max-age=0, s-maxage=600, stale-while-revalidate=30, stale-if-error=7200'

test('pages, files, redirects and the sitemap: s-maxage and the stale windows as set, tagged', async (t) => {
  const { get, projectId, deploymentId } = await siteApp(t)
  for (const url of ['/', '/plain/', '/logo.svg', '/sitemap.xml', '/robots.txt', '/old/', '/plain']) {
    const answer = await get(url)
    assert.ok([200, 301, 308].includes(answer.statusCode), `${url}: ${answer.statusCode}`)
    assert.equal(answer.headers['cache-control'], shared, url)
    assert.equal(answer.headers['surrogate-key'], `project-${projectId} deployment-${deploymentId}`, url)
    assert.equal(answer.headers['cache-tag'], `project-${projectId},deployment-${deploymentId}`, url)
    // One header says it all: no CDN-Cache-Control or Surrogate-Control to contradict it.
    assert.equal(answer.headers['cdn-cache-control'], undefined, url)
    assert.equal(answer.headers['surrogate-control'], undefined, url)
  }
  assert.equal((await get(`/${hashedCss}`)).headers['cache-control'], 'public, max-age=31536000, immutable')
  // A page a later push may add is not kept by a shared cache.
  const missing = await get('/nope/')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.headers['cache-control'], 'public, max-age=0, must-revalidate')
})

test('Vary: Accept only where Markdown is negotiated, Accept-Encoding where a compressed copy exists', async (t) => {
  const { get } = await siteApp(t)
  assert.equal((await get('/')).headers.vary, 'Accept, Accept-Encoding')
  assert.equal((await get('/', { accept: 'text/markdown' })).headers.vary, 'Accept, Accept-Encoding')
  assert.equal((await get('/plain/')).headers.vary, 'Accept-Encoding')
  assert.equal((await get('/logo.svg')).headers.vary, 'Accept-Encoding')
  assert.equal((await get('/old/')).headers.vary, undefined)
})

test('If-None-Match: exact, weak, in a list or * gives 304 with the cache headers; another tag a 200', async (t) => {
  const { get } = await siteApp(t)
  for (const url of ['/', `/${hashedCss}`, '/sitemap.xml']) {
    const first = await get(url)
    const etag = first.headers.etag as string
    assert.match(etag, /^"[0-9a-f]{32}"$/, url)
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(url, { 'if-none-match': ifNoneMatch })
      assert.equal(again.statusCode, 304, `${url} ${ifNoneMatch}`)
      assert.equal(again.body, '')
      assert.equal(again.headers.etag, etag)
      assert.equal(again.headers['cache-control'], first.headers['cache-control'])
    }
    assert.equal((await get(url, { 'if-none-match': '"other"' })).statusCode, 200, url)
  }
  // Each encoding is its own entity: a gzip tag does not validate the brotli copy.
  const gzip = await get('/', { 'accept-encoding': 'gzip' })
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  const br = await get('/', { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag as string })
  assert.equal(br.statusCode, 200)
  assert.equal(br.headers['content-encoding'], 'br')
})

test('previews are private and unknown or unverified hosts are no-store', async (t) => {
  const { app, get, previewToken, projectId } = await siteApp(t)
  const host = `${previewToken}--acme.localhost:8080`
  for (const url of ['/', '/plain/', '/robots.txt', '/old/'])
    assert.equal((await get(url, {}, host)).headers['cache-control'], 'private, no-cache', url)
  assert.equal(
    (await get(`/${hashedCss}`, {}, host)).headers['cache-control'],
    'private, max-age=31536000, immutable',
  )
  assert.equal(
    (await get('/nope/', {}, host)).headers['cache-control'],
    'private, max-age=0, must-revalidate',
  )

  // A claimed custom domain serves nothing until verified, and that answer is never stored.
  await app.repos.domains.create({ projectId, hostname: 'docs.example.org', pathPrefix: '' })
  for (const unserved of ['docs.example.org', 'nobody.localhost:8080']) {
    const answer = await get('/', {}, unserved)
    assert.equal(answer.statusCode, 404, unserved)
    assert.equal(answer.headers['cache-control'], 'no-store', unserved)
  }
})

test('etagMatches compares weakly and reads lists', () => {
  assert.equal(etagMatches(undefined, '"a"'), false)
  assert.equal(etagMatches('"a"', '"a"'), true)
  assert.equal(etagMatches('W/"a"', '"a"'), true)
  assert.equal(etagMatches(' "b" ,W/"a"', '"a"'), true)
  assert.equal(etagMatches('"a-gzip"', '"a"'), false)
  assert.equal(etagMatches('"b", "c"', '"a"'), false)
})
