/**
 * Every navigation shape in Chromium: starting from the home page, a reader clicks links in the
 * sidebar, the tab bar and the switchers (opening a collapsed group or a dropdown first, as a reader
 * would) and reaches every page of the navigation, each one click away from a page whose sidebar or
 * switcher lists it. Switching version or language keeps the reader on the matching page. In the slow
 * tier (test/run.js): test/compiler/config/navigation-shapes.test.ts checks the same reachability in the
 * built HTML in `npm test`.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { buildSite } from '../../compiler/build.js'
import { pageUrlPath } from '../../compiler/theme/urls.js'
import { validateSite } from '../../compiler/validate-site.js'
import { contentTypeOf } from '../../serving/content-type.js'
import { routeSitePath } from '../../serving/router.js'
import { launchChromium, noChromium } from '../chromium.js'
import { readFixture } from '../compiler/build/helpers.js'
import { shapes, shapesDir } from '../compiler/config/navigation-shapes.js'
import { homeFile } from '../compiler/theme/reachability.js'

/** Navigation regions of the shell: the only links this walk follows. */
const NAVIGATION_LINKS = '.d-sidebar a[href], .d-tabs a[href], .d-switcher a[href]'

async function serve(files: ReadonlyMap<string, Uint8Array>): Promise<{ origin: string; close: () => void }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const route = routeSitePath(decodeURIComponent(url.pathname).slice(1), url.search, files)
    if (route.type === 'redirect') response.writeHead(308, { location: route.location }).end()
    else if (route.type === 'not-found') response.writeHead(404).end()
    else response.writeHead(200, { 'content-type': contentTypeOf(route.path) }).end(files.get(route.path))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

/** Opens the closed `<details>` around a link by clicking their summaries, outermost first. */
async function reveal(link: Locator): Promise<void> {
  const closed = link.locator('xpath=ancestor::details[not(@open)]')
  for (let opened = 0; opened < 10 && (await closed.count()) > 0; opened++) {
    const summary = closed.first().locator(':scope > summary')
    // The chevron at the right edge, never a group's root link inside the summary.
    const box = await summary.boundingBox()
    await summary.click({ position: { x: Math.max(1, (box?.width ?? 8) - 6), y: (box?.height ?? 16) / 2 } })
  }
}

/** `/guide/setup/` → `guide/setup`, `/` → `index`. */
const slugOfUrl = (url: string): string => {
  const path = new URL(url).pathname.replace(/^\/|\/$/g, '')
  return path === '' ? 'index' : path
}

/** What `slugOfUrl` gives for a page slug: a folder's page `v2/index` is at `/v2/`. */
const urlSlug = (slug: string): string => slugOfUrl(`http://site/${pageUrlPath(slug)}`)

/** Breadth first over clicks: each page reached, and the page whose navigation links to it. */
async function clickThrough(page: Page, origin: string, home: string): Promise<Map<string, string>> {
  const reachedFrom = new Map<string, string>([[home, '(home)']])
  const queue = [home]
  while (queue.length > 0) {
    const from = queue.shift()!
    await page.goto(`${origin}/${from === 'index' ? '' : `${from}/`}`)
    const hrefs = await page.locator(NAVIGATION_LINKS).evaluateAll((links) =>
      links.map((link) => ({
        href: (link as HTMLAnchorElement).href,
        external: link.getAttribute('target'),
      })),
    )
    for (const [index, { href, external }] of hrefs.entries()) {
      if (external || !href.startsWith(origin)) continue
      const target = slugOfUrl(href)
      if (reachedFrom.has(target)) continue
      const link = page.locator(NAVIGATION_LINKS).nth(index)
      await reveal(link)
      await Promise.all([page.waitForURL(href), link.click()])
      const landed = slugOfUrl(page.url())
      reachedFrom.set(landed, from)
      queue.push(landed)
      await page.goto(`${origin}/${from === 'index' ? '' : `${from}/`}`)
    }
  }
  return reachedFrom
}

test('every page of every navigation shape is one click from a sidebar or switcher', {
  skip: noChromium,
}, async (t) => {
  const browser = await launchChromium()
  t.after(() => browser.close())
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  const page = await context.newPage()
  for (const shape of shapes) {
    await t.test(shape, async () => {
      const files = readFixture(join(shapesDir, shape))
      const navigation = validateSite(files, { mode: 'strict' }).navigation!
      const built = await buildSite(files, { mode: 'strict' })
      const site = await serve(built.files)
      try {
        // Where the home page (or the root's meta refresh, on a site without one) leads.
        const home = homeFile(built.files).replace(/\/?index\.html$/, '') || 'index'
        const reachedFrom = await clickThrough(page, site.origin, home)
        const listed = navigation.pages
          .filter((location) => !location.hidden)
          .map((location) => location.slug)
        assert.deepEqual(
          listed.filter((slug) => !reachedFrom.has(urlSlug(slug))),
          [],
          `${shape}: pages no click reaches`,
        )
      } finally {
        site.close()
      }
    })
  }

  await t.test('a dismissible banner closes with its button and stays closed on the next page', async () => {
    const files = readFixture(join(shapesDir, 'tabs'))
    const config = JSON.parse(new TextDecoder().decode(files.get('docs.json'))) as Record<string, unknown>
    config.banner = { content: 'New: [read the guide](/quickstart)', dismissible: true }
    files.set('docs.json', new TextEncoder().encode(JSON.stringify(config)))
    const built = await buildSite(files, { mode: 'strict' })
    const site = await serve(built.files)
    try {
      await page.goto(`${site.origin}/`)
      assert.ok(await page.isVisible('.d-banner'))
      await page.click('.d-banner-dismiss')
      assert.equal(await page.isVisible('.d-banner'), false)
      // The client bundle remembers the choice (theme/client/banner.ts), so another page opens without it.
      await page.goto(`${site.origin}/quickstart/`)
      assert.equal(await page.isVisible('.d-banner'), false)
    } finally {
      site.close()
    }
  })

  await t.test('switching version or language keeps the reader on the matching page', async () => {
    const cases = [
      { shape: 'languages', from: 'fr/quickstart', option: 'English', to: 'quickstart' },
      { shape: 'languages-with-tabs', from: 'guide', option: 'Español', to: 'es/guide' },
      { shape: 'versions', from: 'v3/install', option: 'v2', to: 'v2/install' },
      // v2 has no `api` page: its first page.
      { shape: 'versions', from: 'v3/api', option: 'v2', to: 'v2/index' },
      { shape: 'versions-in-tab', from: 'sdk/v2/client', option: '1.x', to: 'sdk/v1/client' },
    ]
    for (const { shape, from, option, to } of cases) {
      const built = await buildSite(readFixture(join(shapesDir, shape)), { mode: 'strict' })
      const site = await serve(built.files)
      try {
        await page.goto(`${site.origin}/${from}/`)
        await page.locator('.d-switcher > summary').first().click()
        await Promise.all([page.waitForURL(/./), page.locator('.d-switcher a', { hasText: option }).click()])
        await page.waitForLoadState()
        assert.equal(slugOfUrl(page.url()), urlSlug(to), `${shape}: ${from} → ${option}`)
      } finally {
        site.close()
      }
    }
  })
})
