/** The site URL router shared by `docsctl dev` and the server, against a plain set of site files. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { contentTypeOf } from '../../serving/content-type.js'
import { pageSlugOf, parseSiteUrl, routeSitePath, type SiteRoute } from '../../serving/router.js'

const files = new Set([
  'index.html',
  'index.md',
  'guide/setup/index.html',
  'guide/setup.md',
  'faq/index.html',
  'images/logo.svg',
  'downloads/report.pdf',
])
const route = (url: string): SiteRoute => {
  const parsed = parseSiteUrl(url)
  if ('invalid' in parsed) throw new Error(parsed.invalid)
  return routeSitePath(parsed.path.slice(1), parsed.query, files)
}

test('clean URLs: pages at their trailing slash, with their Markdown export', () => {
  assert.deepEqual(route('/'), { type: 'page', path: 'index.html', markdown: 'index.md' })
  assert.deepEqual(route('/guide/setup/'), {
    type: 'page',
    path: 'guide/setup/index.html',
    markdown: 'guide/setup.md',
  })
  assert.deepEqual(route('/faq/'), { type: 'page', path: 'faq/index.html' })
  assert.deepEqual(route('/guide/setup.md'), { type: 'file', path: 'guide/setup.md' })
  assert.deepEqual(route('/images/logo.svg'), { type: 'file', path: 'images/logo.svg' })
})

test('trailing-slash redirects keep the query', () => {
  for (const [from, to] of [
    ['/guide/setup', '/guide/setup/'],
    ['/guide/setup.html', '/guide/setup/'],
    ['/guide/setup/index.html', '/guide/setup/'],
    ['/index.html', '/'],
    ['/guide/setup?tab=2', '/guide/setup/?tab=2'],
    ['/images/logo.svg/', '/images/logo.svg'],
  ] as const) {
    assert.deepEqual(route(from), { type: 'redirect', location: to }, from)
  }
})

test('missing files and unsafe URLs', () => {
  assert.deepEqual(route('/nope/'), { type: 'not-found' })
  assert.deepEqual(route('/guide/'), { type: 'not-found' })
  assert.deepEqual(parseSiteUrl('/%E0%A4%A'), { invalid: 'Malformed percent-encoding in the path' })
  for (const bad of ['/a/../b', '/x%00y', '/a%5C..%5Cb', 'relative']) {
    assert.ok('invalid' in parseSiteUrl(bad), bad)
  }
  assert.equal(pageSlugOf('index.html'), 'index')
  assert.equal(pageSlugOf('guide/setup/index.html'), 'guide/setup')
  assert.equal(pageSlugOf('guide/setup.md'), undefined)
})

test('one content type per file name', () => {
  assert.equal(contentTypeOf('guide/setup.md'), 'text/markdown; charset=utf-8')
  assert.equal(contentTypeOf('index.html'), 'text/html; charset=utf-8')
  assert.equal(contentTypeOf('logo.svg'), 'image/svg+xml; charset=utf-8')
  assert.equal(contentTypeOf('feed.xml'), 'application/xml; charset=utf-8')
  assert.equal(contentTypeOf('photo.png'), 'image/png')
  assert.equal(contentTypeOf('no-extension'), 'application/octet-stream')
})
