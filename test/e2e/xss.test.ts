/**
 * Script injection, checked by running the built site in Chromium (playwright-core). The fixture
 * test/compiler/build/fixtures/script-injection/ puts a payload in every place the security review
 * found or an author controls: MDX elements in any letter case, raw-text mutations, URL attributes,
 * every component prop that takes a URL or markup, docs.json URL fields, front matter, and uploaded
 * SVG/XML/HTML files. Every payload calls `alert(label)`; the test opens each page, clicks every link,
 * hovers and focuses every element, opens the uploaded files, and asserts that no dialog ever opened.
 * A control page of the same payloads without the compiler proves the harness sees them run.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { lookup } from 'mime-types'
import type { Browser, Page } from 'playwright-core'
import { fromPackageRoot } from '../../compiler/assets.js'
import { buildSite } from '../../compiler/build.js'
import type { SiteFiles } from '../../compiler/files.js'
import { launchChromium, noChromium } from '../chromium.js'
import { readFixture } from '../compiler/build/helpers.js'

const fixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'script-injection')

/** The payloads' own shapes, unsanitised, served beside the site: the harness must see each of them run. */
const CONTROL_PAGE = `<!doctype html><title>control</title>
<img src="x1" onerror="alert('control onerror')">
<a href="/elsewhere/">an ordinary link first</a>
<a href="java&#9;script:alert('control link')">control link</a>
<svg><a href="javascript:alert('control svg link')"><text y="20">svg</text></a></svg>
<noscript><p title="</noscript><img src=x2 onerror=alert('control-mutation')>"></p></noscript>`

/** Serves built files as a static host does (`dir/` → `dir/index.html`), plus the control page. */
async function serve(files: SiteFiles): Promise<{ origin: string; close: () => void }> {
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname).slice(1)
    if (path === '' || path.endsWith('/')) path += 'index.html'
    if (path === 'control.html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(CONTROL_PAGE)
      return
    }
    const bytes = files.get(path)
    if (!bytes) {
      response.writeHead(404, { 'content-type': 'text/html' }).end(files.get('404.html'))
      return
    }
    response.writeHead(200, { 'content-type': lookup(path) || 'application/octet-stream' }).end(bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  }
}

/**
 * Opens `url`, then provokes every payload a reader could trigger: hovers and focuses each element
 * and clicks each link that does not lead to an http(s) page. Any other navigation is aborted (and
 * fails the test). Returns the dialogs that opened: each one is script that ran.
 */
async function payloadsThatRan(browser: Browser, url: string): Promise<string[]> {
  const context = await browser.newContext()
  const ran: string[] = []
  context.on('page', (popup: Page) => {
    popup.on('dialog', (dialog) => {
      ran.push(dialog.message())
      void dialog.dismiss()
    })
  })
  const page = await context.newPage()
  let loaded = false
  await page.route('**/*', (route) =>
    loaded && route.request().isNavigationRequest() ? route.abort() : route.continue(),
  )
  const response = await page.goto(url)
  loaded = true
  await page.evaluate(async () => {
    for (const element of document.querySelectorAll('body *')) {
      element.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }))
      element.dispatchEvent(new FocusEvent('focus'))
    }
    // Every link whose URL (as this browser reads it) is not an http(s) page is clicked, one at a time:
    // those are the ones that could run here. SVG links have no click(); a dispatched click works on both.
    for (const link of document.querySelectorAll('a')) {
      const written = link instanceof SVGAElement ? link.href.baseVal : link.getAttribute('href')
      if (written === null) continue
      const { protocol } = new URL(written, location.href)
      if (protocol === 'http:' || protocol === 'https:') continue
      // In this page, not a new one: a `javascript:` link with target="_blank" must not hide.
      link.removeAttribute('target')
      link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
  await page.waitForTimeout(300)
  await context.close()
  return response?.status() === 404 ? ran.map((message) => `${message} (on a 404 page)`) : ran
}

test('no injected script runs on a built site: MDX, components, docs.json, front matter, uploads', {
  skip: noChromium,
}, async (t) => {
  const result = await buildSite(readFixture(fixture), { mode: 'lenient' })
  assert.equal(result.ok, true, JSON.stringify(result.diagnostics.filter((d) => d.severity === 'error')))
  for (const upload of ['images/evil.svg', 'feed.xml', 'landing.html'])
    assert.equal(result.files.has(upload), false, `${upload} is published though nothing references it`)
  assert.equal(result.files.has('images/used.svg'), true, 'a referenced SVG is published')

  const { origin, close } = await serve(result.files)
  t.after(close)
  const browser = await launchChromium()
  t.after(() => browser.close())

  await t.test('the harness sees the same payloads run when nothing sanitises them', async () => {
    const ran = await payloadsThatRan(browser, `${origin}/control.html`)
    assert.deepEqual(ran.sort(), ['control link', 'control onerror', 'control svg link', 'control-mutation'])
  })

  const pages = [...result.files.keys()].filter((path) => path.endsWith('.html'))
  assert.deepEqual(pages.sort(), ['404.html', 'components/index.html', 'index.html', 'linked/index.html'])
  for (const path of pages) {
    await t.test(`no payload runs on ${path}`, async () => {
      assert.deepEqual(await payloadsThatRan(browser, `${origin}/${path.replace(/index\.html$/, '')}`), [])
    })
  }

  await t.test('uploaded SVG, XML and HTML files nothing references cannot be opened', async () => {
    for (const upload of ['images/evil.svg', 'feed.xml', 'landing.html'])
      assert.deepEqual(await payloadsThatRan(browser, `${origin}/${upload}`), [], upload)
  })
})
