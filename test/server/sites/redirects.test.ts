/**
 * docs.json redirects served by docs-server: the deployment's `_redirects` file (as the build writes
 * it) answers 308/307 before the 404, at the site root and under a custom domain's mount path, with
 * the query string kept and `:param`, `:param*` and `*` filled in.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type RedirectRule, renderRedirectsFile } from '../../../compiler/redirects.js'
import { verifiedDomain } from '../domains/dns-server.js'
import { createProject, signIn, testApp } from '../helper.js'
import { page, publish } from './publish.js'

const rules: RedirectRule[] = [
  { source: '/old-setup', destination: '/guide/setup', permanent: true },
  { source: '/beta/:slug*', destination: '/guide/:slug*', permanent: false },
  { source: '/users/:id/profile', destination: '/people/:id', permanent: true },
  { source: '/blog/*', destination: 'https://blog.example.com/*', permanent: true },
  { source: '/guide/setup', destination: '/guide/install', permanent: true },
]

const site = {
  'index.html': page('Home'),
  'guide/install/index.html': page('Install'),
  'old-setup/index.html': '<meta http-equiv="refresh" content="0; url=../guide/setup/">',
  '404.html': page('Not found'),
  _redirects: renderRedirectsFile(rules),
}

test('redirects answer 308/307 with the query kept, at the root and under a mount path', async (t) => {
  const app = await testApp(t)
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  await publish(app, 'acme', site)
  await verifiedDomain(app.repos, 'acme', 'docs.example.com', '/docs')
  const get = (url: string, host = 'acme.localhost:8080') =>
    app.inject({ method: 'GET', url, headers: { host } })

  for (const [url, status, location] of [
    // A simple source answers with its redirect even though its meta-refresh page exists.
    ['/old-setup', 308, '/guide/setup'],
    ['/old-setup/?utm=mail', 308, '/guide/setup?utm=mail'],
    ['/beta/a/b', 307, '/guide/a/b'],
    ['/beta', 307, '/guide/'],
    ['/users/42/profile?tab=1', 308, '/people/42?tab=1'],
    ['/blog/2024/launch', 308, 'https://blog.example.com/2024/launch'],
    ['/guide/setup/', 308, '/guide/install'],
  ] as const) {
    const response = await get(url)
    assert.equal(response.statusCode, status, url)
    assert.equal(response.headers.location, location, url)
  }
  // Pages and the 404 are untouched.
  assert.equal((await get('/guide/install/')).statusCode, 200)
  assert.equal((await get('/nothing-here')).statusCode, 404)

  // The sitemap lists pages, not the stand-ins of moved ones.
  const sitemap = (await get('/sitemap.xml')).body
  assert.match(sitemap, /guide\/install\//)
  assert.doesNotMatch(sitemap, /old-setup/)

  const prefixed = await get('/docs/beta/x?y=1', 'docs.example.com')
  assert.equal(prefixed.statusCode, 307)
  assert.equal(prefixed.headers.location, '/docs/guide/x?y=1')
  const external = await get('/docs/blog/post', 'docs.example.com')
  assert.equal(external.headers.location, 'https://blog.example.com/post')
})
