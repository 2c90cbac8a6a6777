/** The page policy comes from the built HTML; only the build's own hashed assets are immutable. */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { buildSite } from '../../compiler/build.js'
import {
  inlineScriptsOfHead,
  isActiveContent,
  rebuiltPagePolicy,
  sitePagePolicy,
} from '../../compiler/security-headers.js'
import { themeFiles } from '../../compiler/theme/assets.js'
import { readFixture, shellSiteDir, text } from './build/helpers.js'

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`

test("a build's policy allows exactly the inline scripts in its pages' heads", async () => {
  const result = await buildSite(readFixture(shellSiteDir), { mode: 'strict' })
  const scripts = inlineScriptsOfHead(text(result.files, 'index.html'))
  assert.equal(scripts.length, 1, 'the colour-mode script')
  const policy = result.contentSecurityPolicy
  assert.match(policy, new RegExp(`script-src 'self' ${hashOf(scripts[0]!).replace(/[+/]/g, '\\$&')};`))
  assert.equal(policy.match(/'sha256-/g)?.length, 1)
  for (const directive of [
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "connect-src 'self';",
  ])
    assert.ok(policy.includes(directive), directive)
})

test('with PostHog, its loader script and hosts are allowed', async () => {
  const result = await buildSite(readFixture(shellSiteDir), {
    mode: 'strict',
    analytics: { posthog: { key: 'phc_test123', host: 'https://eu.i.posthog.com/' } },
  })
  const scripts = inlineScriptsOfHead(text(result.files, 'index.html'))
  assert.equal(scripts.length, 2, 'colour mode and the PostHog loader')
  assert.match(scripts[1]!, /s\.src="https:\/\/eu-assets\.i\.posthog\.com\/static\/array\.js"/)
  const policy = result.contentSecurityPolicy
  for (const script of scripts) assert.ok(policy.includes(hashOf(script)))
  assert.match(policy, /script-src [^;]*https:\/\/eu-assets\.i\.posthog\.com/)
  assert.match(policy, /connect-src 'self' https:\/\/eu\.i\.posthog\.com/)
})

test('a PostHog host or server origin that is no plain origin never reaches the policy', () => {
  const injected = "https://x/;script-src-attr 'unsafe-inline'"
  for (const options of [
    { inlineScripts: [], analyticsHost: injected },
    { inlineScripts: [], analyticsHost: 'https://x;script-src-attr' },
    { inlineScripts: [], connectSources: ['https://x;script-src-attr', "https://x'unsafe-eval'"] },
  ]) {
    const policy = sitePagePolicy(options)
    assert.equal(policy, sitePagePolicy({ inlineScripts: [] }), JSON.stringify(options))
    assert.doesNotMatch(policy, /script-src-attr|unsafe-eval|'unsafe-inline'.*script/)
  }
  // Built from parsed parts: the origin only, whatever the setting's spelling.
  assert.match(
    sitePagePolicy({ inlineScripts: [], analyticsHost: 'HTTPS://EU.I.POSTHOG.COM:443/' }),
    /connect-src 'self' https:\/\/eu\.i\.posthog\.com https:\/\/eu-assets\.i\.posthog\.com;/,
  )
})

test('a policy stored by an older build is rebuilt from its well-formed sources only', () => {
  const good = sitePagePolicy({
    inlineScripts: ['a()'],
    analyticsHost: 'https://eu.i.posthog.com',
    connectSources: ['http://localhost:3000'],
  })
  assert.equal(rebuiltPagePolicy(good), good, 'a well-formed policy comes back unchanged')
  const stored = `${sitePagePolicy({ inlineScripts: ['a()'] }).replace(
    '; style-src',
    " https://x/;script-src-attr 'unsafe-inline' https://x/; style-src",
  )}; connect-src 'self' *`
  const rebuilt = rebuiltPagePolicy(stored)
  assert.equal(rebuilt, sitePagePolicy({ inlineScripts: ['a()'] }))
  assert.doesNotMatch(rebuilt, /script-src-attr/)
})

test('scripts in the body are never allowed by hash', () => {
  const html =
    '<!doctype html><html><head><script>head()</script><script src="x.js"></script></head><body><script>body()</script></body></html>'
  assert.deepEqual(inlineScriptsOfHead(html), ['head()'])
  assert.ok(!sitePagePolicy({ inlineScripts: inlineScriptsOfHead(html) }).includes(hashOf('body()')))
})

test('only the theme files are hashed assets, never an author file that looks hashed', async () => {
  const files = readFixture(shellSiteDir)
  // In the public folder, so the build publishes them though no page shows them.
  files.set('public/screenshot-20240101.png', new Uint8Array([1, 2, 3]))
  files.set('public/app.3f9a0c1b2d4e.js.png', new Uint8Array([4, 5, 6]))
  const result = await buildSite(files, { mode: 'strict' })
  assert.ok(result.files.has('public/screenshot-20240101.png'))
  assert.deepEqual([...result.hashedAssets].sort(), [...themeFiles().files.keys()].sort())
})

test('active content types', () => {
  for (const type of [
    'image/svg+xml; charset=utf-8',
    'application/xml',
    'text/xml',
    'application/xhtml+xml',
    'text/html; charset=utf-8',
    'application/rss+xml',
  ])
    assert.equal(isActiveContent(type), true, type)
  for (const type of ['image/png', 'text/css; charset=utf-8', 'application/javascript', 'text/plain'])
    assert.equal(isActiveContent(type), false, type)
})
