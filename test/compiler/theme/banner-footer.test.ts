/**
 * docs.json `banner` and `footer` in the shell: the banner's Markdown as inline HTML with site links
 * made relative, raw HTML and script URLs dropped, a checkbox to dismiss it; the footer's socials as
 * labelled brand icons and its link columns.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { bannerHtml } from '../../../compiler/theme/banner.js'
import { validateSite } from '../../../compiler/validate-site.js'
import { text } from '../build/helpers.js'

const encoder = new TextEncoder()

const docs = {
  name: 'Shell',
  navigation: { pages: ['index', 'guide/start'] },
  banner: {
    content: '**v2 is out:** read [the guide](/guide/start) or [the blog](https://example.com/blog)',
    dismissible: true,
  },
  footer: {
    socials: { x: 'https://x.com/acme', github: 'https://github.com/acme' },
    links: [
      {
        header: 'Company',
        items: [
          { label: 'About', href: 'https://acme.dev/about' },
          { label: 'Start', href: '/guide/start' },
        ],
      },
    ],
  },
}

function site(config: unknown): Map<string, Uint8Array> {
  return new Map([
    ['docs.json', encoder.encode(JSON.stringify(config))],
    ['index.mdx', encoder.encode('---\ntitle: Home\n---\n\nHello.\n')],
    ['guide/start.mdx', encoder.encode('---\ntitle: Start\n---\n\nGo.\n')],
  ])
}

test('banner and footer are valid strictly and render in the shell', async () => {
  assert.deepEqual(validateSite(site(docs), { mode: 'strict' }).diagnostics.map(formatDiagnostic), [])
  const result = await buildSite(site(docs), { mode: 'strict' })
  assert.equal(result.ok, true)
  const page = text(result.files, 'guide/start/index.html')
  assert.match(
    page,
    /<input type="checkbox" id="d-banner-dismissed" class="d-banner-toggle d-visually-hidden" aria-label="Dismiss banner"><div class="d-banner" role="region" aria-label="Announcement" data-banner="[a-z0-9]+"><p class="d-banner-content"><strong>v2 is out:<\/strong> read <a href="\.\.\/\.\.\/guide\/start\/">the guide<\/a> or <a href="https:\/\/example\.com\/blog" target="_blank" rel="noopener noreferrer">the blog<\/a><\/p>/,
  )
  assert.match(
    page,
    /<a href="https:\/\/x\.com\/acme" target="_blank" rel="noopener noreferrer" aria-label="X" title="X"><svg/,
  )
  assert.match(page, /aria-label="GitHub" title="GitHub"><svg/)
  assert.match(
    page,
    /<div class="d-footer-column"><p class="d-footer-heading">Company<\/p><ul><li><a href="https:\/\/acme\.dev\/about"[^>]*>About<\/a><\/li><li><a href="\.\.\/\.\.\/guide\/start\/">Start<\/a><\/li><\/ul><\/div>/,
  )
})

test('a banner never carries raw HTML or a script URL', () => {
  const html = bannerHtml('<img src=x onerror=alert(1)> [click](javascript:alert(1)) <b>bold</b>', 'index')
  assert.doesNotMatch(html, /onerror|javascript:|<img|<b>/)
  assert.match(html, /<a>click<\/a>/)
})

test('without banner or footer keys the shell has neither', async () => {
  const result = await buildSite(site({ name: 'Plain', navigation: { pages: ['index', 'guide/start'] } }), {
    mode: 'strict',
  })
  const page = text(result.files, 'index.html')
  assert.doesNotMatch(page, /d-banner|d-footer-socials|d-footer-column/)
})

test('a footer social named like a member of every object is an unknown platform, not a crash', async () => {
  // Found by test:reliability: `"constructor"` found Object.prototype's member and the build threw.
  const socials = { constructor: 'https://a.example/', toString: 'https://b.example/' }
  const result = await buildSite(site({ ...docs, footer: { socials } }), { mode: 'lenient' })
  const page = text(result.files, 'index.html')
  assert.match(page, /aria-label="Constructor" title="Constructor"/)
  assert.match(page, /aria-label="ToString" title="ToString"/)
  assert.doesNotMatch(page, /native code/)
})
