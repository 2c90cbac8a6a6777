/**
 * The serving hot path against a site manifest written straight into the blob store and database,
 * so these tests pin routing and headers independently of the compiler's output.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { parseManifestHead } from '../../../server/builds/site-manifest-store.js'
import { verifiedDomain } from '../domains/dns-server.js'
import { createProject, deploy, sha256, signIn, testApp } from '../helper.js'
import { hashedCss, page, publish } from './publish.js'

const site = {
  'index.html': page('Home'),
  'guide/setup/index.html': page('Setup'),
  'guide/setup.md': '# Setup\n',
  'index.md': '# Home\n',
  '404.html': page('Not found'),
  'llms.txt': '# Docs\n',
  'robots.txt': 'User-agent: *\nAllow: /\nDisallow: /internal/\n',
  'internal/index.html': page('Internal'),
  [hashedCss]: 'body{color:red}'.repeat(50),
  'screenshot-20240101.png': 'not really a png',
  'images/diagram.0123456789abcdef.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
}

/** Pages and files that are not hashed assets: browsers ask again, a shared cache keeps them a while. */
const revalidated = 'public, max-age=0, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400'

async function siteApp(t: Parameters<typeof testApp>[0]) {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  const published = await publish(app, 'acme', site)
  const get = (url: string, headers: Record<string, string> = {}, host = 'acme.localhost:8080') =>
    app.inject({ method: 'GET', url, headers: { host, ...headers } })
  return { app, get, ...published }
}

test('pages: canonical trailing-slash URLs, redirects, 404 page, headers', async (t) => {
  const { get, projectId, deploymentId } = await siteApp(t)
  const home = await get('/')
  assert.equal(home.statusCode, 200)
  assert.match(home.body, /<title>Home/)
  assert.equal(home.headers['x-content-type-options'], 'nosniff')
  assert.equal(home.headers['cache-control'], revalidated)
  assert.equal(home.headers['cache-tag'], `project-${projectId},deployment-${deploymentId}`)
  assert.equal(home.headers['surrogate-key'], `project-${projectId} deployment-${deploymentId}`)
  assert.equal(
    home.headers.link,
    '<http://acme.localhost:8080/>; rel="canonical", <http://acme.localhost:8080/llms.txt>; rel="llms-txt"',
  )
  assert.equal(home.headers['x-robots-tag'], undefined)

  const setup = await get('/guide/setup/')
  assert.equal(setup.statusCode, 200)
  assert.match(setup.body, /<title>Setup/)
  for (const [from, to] of [
    ['/guide/setup', '/guide/setup/'],
    ['/guide/setup.html', '/guide/setup/'],
    ['/guide/setup/index.html', '/guide/setup/'],
    ['/index.html', '/'],
    ['/guide/setup?x=1', '/guide/setup/?x=1'],
  ] as const) {
    const redirect = await get(from)
    assert.equal(redirect.statusCode, 301, from)
    assert.equal(redirect.headers.location, to, from)
  }
  const missing = await get('/nope/')
  assert.equal(missing.statusCode, 404)
  assert.match(missing.body, /Not found/)
  for (const inherited of ['/constructor', '/toString/', '/__proto__', '/hasOwnProperty.html']) {
    assert.equal((await get(inherited)).statusCode, 404, inherited)
  }
  const deepMissing = await get('/a/b/nope/')
  assert.equal(deepMissing.statusCode, 404)
  assert.match(
    deepMissing.body,
    /^<!doctype html><base href="\/">/,
    '404.html links resolve from the site root',
  )
  assert.equal((await get('/x%00y')).statusCode, 400)
  assert.equal((await get('/%E0%A4%A')).statusCode, 400)
  const post = await (await siteApp(t)).app.inject({
    method: 'POST',
    url: '/',
    headers: { host: 'acme.localhost:8080' },
  })
  assert.equal(post.statusCode, 405)
  assert.equal(post.headers.allow, 'GET, HEAD')
})

test('ETag and 304, HEAD, brotli and gzip by Accept-Encoding, immutable hashed assets', async (t) => {
  const { app, get } = await siteApp(t)
  const first = await get('/')
  const etag = first.headers.etag as string
  assert.match(etag, /^"[0-9a-f]{32}"$/)
  const again = await get('/', { 'if-none-match': etag })
  assert.equal(again.statusCode, 304)
  assert.equal(again.body, '')

  const head = await app.inject({ method: 'HEAD', url: '/', headers: { host: 'acme.localhost:8080' } })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['content-length'], String(Buffer.byteLength(site['index.html'])))
  assert.equal(head.body, '')

  const br = await get('/', { 'accept-encoding': 'gzip, deflate, br' })
  assert.equal(br.headers['content-encoding'], 'br')
  assert.equal(br.headers.vary, 'Accept, Accept-Encoding')
  assert.notEqual(br.headers.etag, etag)
  const gzip = await get('/', { 'accept-encoding': 'gzip' })
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  assert.equal(gunzipSync(gzip.rawPayload).toString(), site['index.html'])
  const identity = await get('/', { 'accept-encoding': 'br;q=0, gzip;q=0' })
  assert.equal(identity.headers['content-encoding'], undefined)

  const css = await get(`/${hashedCss}`)
  assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.match(css.headers['content-type'] as string, /^text\/css/)
  // Only the build's own hashed assets are immutable: never an author's file or a query string.
  for (const url of [
    '/screenshot-20240101.png',
    '/images/diagram.0123456789abcdef.svg',
    '/screenshot-20240101.png?v=0123456789abcdef.css',
    '/?v=0123456789abcdef.js',
  ]) {
    const response = await get(url)
    assert.equal(response.statusCode, 200, url)
    assert.equal(response.headers['cache-control'], revalidated, url)
  }
})

test('markdown exports, sitemap per host, previews are noindex', async (t) => {
  const { app, get, deploymentId, previewToken } = await siteApp(t)
  const md = await get('/guide/setup/', { accept: 'text/markdown' })
  assert.equal(md.statusCode, 200)
  assert.equal(md.body, '# Setup\n')
  assert.match(md.headers['content-type'] as string, /^text\/markdown/)
  const direct = await get('/guide/setup.md')
  assert.equal(direct.body, '# Setup\n')

  const sitemap = await get('/sitemap.xml')
  assert.equal(sitemap.statusCode, 200)
  assert.match(sitemap.body, /<loc>http:\/\/acme\.localhost:8080\/<\/loc>/)
  assert.match(sitemap.body, /<loc>http:\/\/acme\.localhost:8080\/guide\/setup\/<\/loc>/)
  assert.doesNotMatch(sitemap.body, /404/)
  assert.doesNotMatch(sitemap.body, /internal/, 'pages robots.txt disallows are left out')
  const robots = await get('/robots.txt')
  assert.equal(
    robots.body,
    'User-agent: *\nAllow: /\nDisallow: /internal/\nSitemap: http://acme.localhost:8080/sitemap.xml\n',
  )
  assert.match(robots.headers['content-type'] as string, /^text\/plain/)

  const preview = await get('/', {}, `${previewToken}--acme.localhost:8080`)
  assert.equal(preview.statusCode, 200)
  assert.equal(preview.headers['x-robots-tag'], 'noindex')
  const byId = await get('/', {}, `${deploymentId}--acme.localhost:8080`)
  assert.equal(byId.statusCode, 404, 'a deployment id no longer names a preview host')
  const unknownPreview = await get('/', {}, 'dpl_aaaaaaaaaaaaaaaa--acme.localhost:8080')
  assert.equal(unknownPreview.statusCode, 404)
  const guessed = await get('/', {}, `${'a'.repeat(26)}--acme.localhost:8080`)
  assert.equal(guessed.statusCode, 404)
  const unknown = await get('/', {}, 'nobody.localhost:8080')
  assert.equal(unknown.statusCode, 404)

  // A verified custom domain, mounted under /docs.
  await verifiedDomain(app.repos, 'acme', 'docs.example.com', '/docs')
  const custom = await get('/docs/guide/setup/', {}, 'docs.example.com')
  assert.equal(custom.statusCode, 200)
  assert.match(
    custom.headers.link as string,
    /<https:\/\/docs\.example\.com\/docs\/guide\/setup\/>; rel="canonical"/,
  )
  const customRobots = await get('/docs/robots.txt', {}, 'docs.example.com')
  assert.equal(
    customRobots.body,
    'User-agent: *\nAllow: /docs/\nDisallow: /docs/internal/\nSitemap: https://docs.example.com/docs/sitemap.xml\n',
  )
  const previewRobots = await get('/robots.txt', {}, `${previewToken}--acme.localhost:8080`)
  assert.equal(previewRobots.body, 'User-agent: *\nDisallow: /\n')
  const outside = await get('/guide/setup/', {}, 'docs.example.com')
  assert.equal(outside.statusCode, 404)
})

test('the API is never reachable on a site host, and a promotion switches the site at once', async (t) => {
  const { app, get } = await siteApp(t)
  const api = await get('/health')
  assert.equal(api.statusCode, 404)
  assert.equal(api.headers['content-type'], 'text/html; charset=utf-8')
  const onApiHost = await app.inject({ method: 'GET', url: '/health', headers: { host: 'localhost:8080' } })
  assert.equal(onApiHost.statusCode, 200)
  const onIp = await app.inject({ method: 'GET', url: '/health', headers: { host: '127.0.0.1:9999' } })
  assert.equal(onIp.statusCode, 200)

  await publish(app, 'acme', { 'index.html': page('Second') })
  const after = await get('/')
  assert.match(after.body, /<title>Second/)
})

/** A built site: one page that shows two images, and a stylesheet every page links. */
function versionedSite(shot: string, style: string): Map<string, Uint8Array> {
  const docs = { name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }
  return new Map<string, Uint8Array>([
    ['docs.json', Buffer.from(JSON.stringify(docs))],
    [
      'index.mdx',
      Buffer.from('---\ntitle: Home\n---\n\n![Shot](/images/shot.png)\n\n![Kept](/images/kept.png)\n'),
    ],
    ['images/shot.png', Buffer.from(shot)],
    ['images/kept.png', Buffer.from('kept png bytes')],
    ['style.css', Buffer.from(style)],
  ])
}

/** The versioned URLs of the author files a page loads: its images and its own stylesheet. */
function authorAssetUrls(html: string): string[] {
  const urls = [...html.matchAll(/(?:src|href)="([^"]+\?v=[0-9a-f]{12})"/g)].map((match) => `/${match[1]}`)
  return urls.sort()
}

test('a page of the previous deployment loads its own images and stylesheet after the next is promoted', async (t) => {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  await createProject(app, token, 'other')
  const get = (url: string, host = 'acme.localhost:8080') =>
    app.inject({ method: 'GET', url, headers: { host } })

  const first = await deploy(app, token, 'acme', versionedSite('first png', 'p { color: red; }'))
  assert.equal(first.finalized.statusCode, 200, first.finalized.body)
  const pageOfFirst = (await get('/')).body
  const urls = authorAssetUrls(pageOfFirst)
  assert.deepEqual(
    urls.map((url) => url.replace(/\?v=.*/, '')),
    ['/images/kept.png', '/images/shot.png', '/style.css'],
  )
  const bytesOfFirst = new Map<string, Buffer>()
  for (const url of urls) bytesOfFirst.set(url, (await get(url)).rawPayload)
  assert.equal(bytesOfFirst.get(urls[1]!)!.toString(), 'first png')

  // The next deployment changes the image and the stylesheet, and is promoted while the page is open.
  const second = await deploy(app, token, 'acme', versionedSite('second png', 'p { color: blue; }'))
  assert.equal(second.finalized.statusCode, 200, second.finalized.body)
  const pageOfSecond = (await get('/')).body
  assert.notDeepEqual(authorAssetUrls(pageOfSecond), urls)
  for (const url of urls) {
    const answer = await get(url)
    assert.equal(answer.statusCode, 200, url)
    assert.deepEqual(answer.rawPayload, bytesOfFirst.get(url), `${url} is the first deployment's`)
    assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable', url)
  }
  for (const url of authorAssetUrls(pageOfSecond)) {
    const answer = await get(url)
    assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable', url)
    if (url.startsWith('/images/shot.png')) assert.equal(answer.body, 'second png')
    if (url.startsWith('/style.css')) assert.match(answer.body, /blue/)
  }
  // Without a version, the path is the live deployment's file, revalidated as before.
  const plain = await get('/images/shot.png')
  assert.equal(plain.body, 'second png')
  assert.equal(plain.headers['cache-control'], revalidated)

  // Another project's file is never served, whatever version is asked for: the live file, not immutable.
  const other = await deploy(app, token, 'other', versionedSite('secret png of other', 'p { color: green; }'))
  assert.equal(other.finalized.statusCode, 200, other.finalized.body)
  const otherVersion = sha256('secret png of other').slice(0, 12)
  assert.ok((await get(`/images/shot.png?v=${otherVersion}`, 'other.localhost:8080')).statusCode === 200)
  const crossed = await get(`/images/shot.png?v=${otherVersion}`)
  assert.equal(crossed.statusCode, 200)
  assert.equal(crossed.body, 'second png')
  assert.equal(crossed.headers['cache-control'], revalidated)
  // Nor a deployment of this project that never went live: a preview may be behind a preview token.
  const unpromoted = await deploy(app, token, 'acme', versionedSite('preview png', 'p { color: red; }'), {
    promote: false,
  })
  assert.equal(unpromoted.finalized.statusCode, 200, unpromoted.finalized.body)
  const previewVersion = sha256('preview png').slice(0, 12)
  assert.equal((await get(`/images/shot.png?v=${previewVersion}`)).body, 'second png')
  // A version no deployment has, or a malformed one, is the live file too.
  assert.equal((await get('/images/shot.png?v=000000000000')).body, 'second png')
  assert.equal((await get('/images/shot.png?v=ZZ')).body, 'second png')
})

test('a site of many pages is read one manifest shard at a time, even with no room to cache one', async (t) => {
  // One byte of manifest cache: every read loads the manifest's head and the shards it looks in again.
  const app = await testApp(t, 'sqlite', { manifestCacheBytes: 1 })
  const token = await signIn(app)
  await createProject(app, token, 'big')
  const pages: Record<string, string> = { 'index.html': page('Home'), '404.html': page('Not found') }
  for (let index = 0; index < 400; index++) {
    pages[`guide/page-${index}/index.html`] = page(`Page ${index}`)
    pages[`guide/page-${index}.md`] = `# Page ${index}\n`
  }
  const { deploymentId } = await publish(app, 'big', pages)
  const head = (await app.repos.deployments.findById(deploymentId))!.site_manifest_sha256!
  const shards = new Set<string>(parseManifestHead((await app.blobs.get(head))!).shards)
  assert.ok(shards.size >= 6, `${shards.size} shards`)
  const read = app.blobs.get.bind(app.blobs)
  const got: string[] = []
  app.blobs.get = (sha256) => {
    got.push(sha256)
    return read(sha256)
  }
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { host: 'big.localhost:8080', ...headers } })

  const answer = await get('/guide/page-123/')
  assert.equal(answer.statusCode, 200)
  assert.match(answer.body, /Page 123/)
  assert.equal(answer.headers.link, '<http://big.localhost:8080/guide/page-123/>; rel="canonical"')
  const shardsRead = got.filter((sha256) => shards.has(sha256))
  // The page, its Markdown export and every path its URL is routed through share one shard; the
  // redirects, llms.txt and 404.html are in the head.
  assert.equal(shardsRead.length, 1, `${shardsRead.length} shards read`)
  assert.equal((await get('/guide/page-7', {})).headers.location, '/guide/page-7/')
  assert.equal((await get('/guide/page-399/', { accept: 'text/markdown' })).body, '# Page 399\n')
  assert.equal((await get('/guide/page-400/')).statusCode, 404)
  assert.match((await get('/guide/page-400/')).body, /Not found/)
  const sitemap = await get('/sitemap.xml')
  assert.equal(sitemap.body.match(/<loc>/g)?.length, 401, 'the sitemap reads every shard')

  // Readers that miss together wait for one read of the head and of the shard.
  got.length = 0
  const together = await Promise.all(Array.from({ length: 20 }, () => get('/guide/page-250/')))
  assert.ok(together.every((answer) => answer.statusCode === 200))
  assert.equal(got.filter((sha256) => sha256 === head).length, 1, 'one read of the head')
  assert.equal(got.filter((sha256) => shards.has(sha256)).length, 1, 'one read of the shard')
})

test('a deployment whose manifest was stored whole, before manifests had parts, is served as before', async (t) => {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'old')
  await publish(app, 'old', site, true, "script-src 'self'", 'whole')
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { host: 'old.localhost:8080', ...headers } })
  const home = await get('/')
  assert.equal(home.statusCode, 200)
  assert.match(home.headers['content-security-policy'] as string, /script-src 'self'/)
  assert.equal((await get('/guide/setup')).headers.location, '/guide/setup/')
  assert.equal((await get('/guide/setup/', { accept: 'text/markdown' })).body, '# Setup\n')
  assert.match((await get('/nowhere/')).body, /Not found/)
  assert.match((await get('/sitemap.xml')).body, /guide\/setup\//)
  assert.equal((await get('/__proto__')).statusCode, 404)
})
