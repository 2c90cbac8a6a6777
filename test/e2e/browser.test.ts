/**
 * The built shell in a real browser (Chromium through playwright-core): a fixture site built with
 * buildSite, written to a temp folder and served as static files. Light and dark mode, component
 * tabs, accordion, code copy, search and the phone sidebar; axe-core must find no serious or
 * critical violation. Screenshots go to test-artifacts/ (gitignored).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'
import { test } from 'node:test'
import { lookup } from 'mime-types'
import type { Page } from 'playwright-core'
import { fromPackageRoot } from '../../compiler/assets.js'
import { buildSite } from '../../compiler/build.js'
import { launchChromium, noChromium } from '../chromium.js'
import { readFixture, shellSiteDir } from '../compiler/build/helpers.js'

const artifacts = fromPackageRoot('test-artifacts')
const axeSource = readFileSync(fromPackageRoot('node_modules', 'axe-core', 'axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

async function axeProblems(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource })
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
    ).axe
    return (await axe.run(document)).violations
  })) as AxeViolation[]
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    )
}

test('the built site works in a real browser and passes axe', {
  skip: noChromium,
}, async (t) => {
  const site = mkdtempSync(join(tmpdir(), 'docs-browser-'))
  t.after(() => rmSync(site, { recursive: true, force: true }))
  const source = readFixture(shellSiteDir)
  // The MCP actions too, to check the URLs the page script fills in.
  const docsJson = JSON.parse(new TextDecoder().decode(source.get('docs.json'))) as {
    contextual: { options: string[] }
  }
  docsJson.contextual.options.push('mcp', 'add-mcp', 'cursor', 'vscode', 'devin-mcp')
  source.set('docs.json', new TextEncoder().encode(JSON.stringify(docsJson)))
  const result = await buildSite(source, { mode: 'strict' })
  assert.equal(result.ok, true)
  for (const [path, bytes] of result.files) {
    mkdirSync(dirname(join(site, path)), { recursive: true })
    writeFileSync(join(site, path), bytes)
  }
  // A plain static host: `dir/` serves `dir/index.html`, like any static server. The same files
  // also answer under `/docs/`, as a site mounted at a path prefix does.
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/docs\//, '/')
    if (path.endsWith('/')) path += 'index.html'
    const file = normalize(join(site, path))
    if (!file.startsWith(site) || !existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/html' }).end(readFileSync(join(site, '404.html')))
      return
    }
    response
      .writeHead(200, { 'content-type': lookup(file) || 'application/octet-stream' })
      .end(readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  mkdirSync(artifacts, { recursive: true })

  const browser = await launchChromium()
  t.after(() => browser.close())
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  await t.test('light mode renders the shell and passes axe', async () => {
    await page.goto(`${origin}/`)
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light')
    assert.equal(await page.textContent('h1'), 'Welcome to Acme')
    assert.ok(await page.isVisible('.d-sidebar'))
    assert.ok(await page.isVisible('.d-toc'))
    await page.screenshot({ path: join(artifacts, 'shell-light.png'), fullPage: true })
    assert.deepEqual(await axeProblems(page), [])
  })

  await t.test('the toggle switches to dark mode, remembered across pages', async () => {
    await page.click('[data-theme-toggle]')
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark')
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    assert.equal(background, 'rgb(15, 17, 21)')
    await page.screenshot({ path: join(artifacts, 'shell-dark.png'), fullPage: true })
    assert.deepEqual(await axeProblems(page), [])
    await page.goto(`${origin}/guide/setup/`)
    assert.equal(
      await page.getAttribute('html', 'data-theme'),
      'dark',
      'no flash back to light on the next page',
    )
    await page.click('[data-theme-toggle]')
    await page.goto(`${origin}/`)
  })

  await t.test('component tabs switch with the mouse and the arrow keys', async () => {
    const second = page.locator('[role="tab"]', { hasText: 'pnpm' })
    await second.click()
    assert.equal(await second.getAttribute('aria-selected'), 'true')
    assert.ok(await page.isVisible('#tabs-1-panel-1'))
    assert.ok(await page.isHidden('#tabs-1-panel-0'))
    await page.keyboard.press('ArrowLeft')
    assert.equal(
      await page.locator('[role="tab"]', { hasText: 'npm' }).first().getAttribute('aria-selected'),
      'true',
    )
    assert.ok(await page.isVisible('#tabs-1-panel-0'))
  })

  await t.test('an accordion opens and closes', async () => {
    const accordion = page.locator('details.d-accordion')
    assert.equal(await accordion.evaluate((element) => (element as HTMLDetailsElement).open), false)
    await page.click('details.d-accordion summary')
    assert.equal(await accordion.evaluate((element) => (element as HTMLDetailsElement).open), true)
    assert.ok(await page.isVisible('text=Each replica is billed per second'))
  })

  await t.test('the copy button copies the code block', async () => {
    await page.locator('.d-code[data-title="acme.config.ts"] button.copy').click()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    assert.equal(copied, "export default {\n  region: 'eu-west',\n  replicas: 2,\n}")
  })

  await t.test('Ctrl-K opens search, which finds a page by its text and goes there', async () => {
    await page.keyboard.press('Control+k')
    assert.ok(await page.isVisible('.d-search-dialog'))
    await page.fill('#d-search-input', 'rollback')
    await page.waitForSelector('.d-search-results a')
    assert.match((await page.textContent('.d-search-results a')) ?? '', /Deploy/)
    await page.screenshot({ path: join(artifacts, 'search.png') })
    assert.deepEqual(await axeProblems(page), [])
    await Promise.all([page.waitForURL(`${origin}/guide/deploy/`), page.keyboard.press('Enter')])
    assert.equal(await page.textContent('h1'), 'Deploy')
  })

  await t.test('page actions copy the Markdown export and send assistants the page URL', async () => {
    await page.goto(`${origin}/guide/setup/`)
    const claude = await page.getAttribute('.d-contextual [data-assistant*="claude"]', 'href')
    const prompt = `Read ${origin}/guide/setup.md so I can ask questions about it.`
    assert.equal(claude, `https://claude.ai/new?q=${encodeURIComponent(prompt)}`)
    await page.click('.d-contextual [data-copy-markdown]')
    await page.waitForSelector('.d-contextual [data-copy-markdown][data-copied]')
    assert.equal(await page.textContent('.d-contextual [data-copy-markdown] span'), 'Copied')
    const markdown = await (await fetch(`${origin}/guide/setup.md`)).text()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markdown)
  })

  await t.test(
    'the page menu connects AI tools to the MCP server at the prefix the site is served under',
    async () => {
      await page.goto(`${origin}/docs/guide/setup/`)
      const mcpUrl = `${origin}/docs/mcp`
      await page.click('.d-contextual-menu summary')
      const labels = await page.locator('.d-contextual-menu [data-mcp-action]').allTextContents()
      assert.deepEqual(labels, [
        'Copy MCP server URL',
        'Copy add-mcp command',
        'Connect to Cursor',
        'Connect to VS Code',
        'Connect to Devin',
      ])
      await page.click('text=Copy MCP server URL')
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), mcpUrl)
      await page.click('.d-contextual-menu summary')
      await page.click('.d-contextual-menu summary')
      await page.click('text=Copy add-mcp command')
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `npx add-mcp ${mcpUrl}`)
      const cursor = new URL((await page.getAttribute('text=Connect to Cursor', 'href')) ?? '')
      assert.equal(
        `${cursor.protocol}//${cursor.host}${cursor.pathname}`,
        'cursor://anysphere.cursor-deeplink/mcp/install',
      )
      assert.equal(cursor.searchParams.get('name'), 'Acme Docs')
      assert.deepEqual(JSON.parse(atob(cursor.searchParams.get('config') ?? '')), { url: mcpUrl })
      const vscode = (await page.getAttribute('text=Connect to VS Code', 'href')) ?? ''
      assert.ok(vscode.startsWith('vscode:mcp/install?'), vscode)
      assert.deepEqual(JSON.parse(decodeURIComponent(vscode.slice('vscode:mcp/install?'.length))), {
        name: 'Acme Docs',
        type: 'http',
        url: mcpUrl,
      })
      assert.equal(await page.getAttribute('text=Connect to Devin', 'data-mcp-url'), mcpUrl)
    },
  )

  await t.test('the table of contents marks the heading being read', async () => {
    // A short window, so the page scrolls far enough to bring the second heading under the header.
    await page.setViewportSize({ width: 1280, height: 400 })
    await page.goto(`${origin}/guide/setup/`)
    await page.evaluate(() =>
      window.scrollBy(
        0,
        (document.getElementById('check-the-result')?.getBoundingClientRect().top ?? 0) - 100,
      ),
    )
    await page.waitForSelector('.d-toc-nav a[href="#check-the-result"][aria-current="true"]')
    assert.equal(await page.locator('.d-toc-nav a[aria-current]').count(), 1)
    await page.setViewportSize({ width: 1280, height: 860 })
  })

  await t.test('on a phone the sidebar is a drawer behind the menu button', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    // Reduced motion turns the drawer's slide off, so the screenshot shows where it settles.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto(`${origin}/guide/setup/`)
    assert.ok(await page.isHidden('.d-sidebar'))
    assert.ok(await page.isHidden('.d-toc'))
    const menu = page.getByRole('button', { name: 'Navigation', exact: true })
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement
        return element?.getAttribute('aria-label') || element?.textContent?.trim() || element?.tagName || ''
      })
    // A keyboard walk: Tab reaches the menu button among the first stops; Enter opens the drawer and
    // moves focus to its close button.
    const stops: string[] = []
    for (let tab = 0; tab < 4 && stops.at(-1) !== 'Navigation'; tab++) {
      await page.keyboard.press('Tab')
      stops.push(await focused())
    }
    assert.equal(stops.at(-1), 'Navigation', `tab stops: ${stops.join(', ')}`)
    assert.equal(await menu.getAttribute('aria-expanded'), 'false')
    assert.equal(await menu.getAttribute('aria-controls'), 'd-sidebar')
    await page.keyboard.press('Enter')
    assert.ok(await page.isVisible('.d-sidebar'))
    assert.equal(await menu.getAttribute('aria-expanded'), 'true')
    assert.equal(await focused(), 'Close navigation')
    assert.deepEqual(await axeProblems(page), [], 'axe with the drawer open')
    // Focus stays in the drawer: Tab goes to its first link, Shift+Tab from the close button wraps to its last.
    await page.keyboard.press('Tab')
    assert.ok(await page.evaluate(() => document.activeElement?.closest('.d-sidebar-nav') !== null))
    await page.keyboard.press('Shift+Tab')
    assert.equal(await focused(), 'Close navigation')
    await page.keyboard.press('Shift+Tab')
    assert.ok(await page.evaluate(() => document.activeElement?.closest('.d-sidebar') !== null))
    // Escape closes it and focus returns to the menu button.
    await page.keyboard.press('Escape')
    assert.ok(await page.isHidden('.d-sidebar'))
    assert.equal(await menu.getAttribute('aria-expanded'), 'false')
    assert.equal(await focused(), 'Navigation')
    // So does the close button.
    await page.keyboard.press('Enter')
    assert.equal(await focused(), 'Close navigation')
    await page.keyboard.press('Enter')
    assert.ok(await page.isHidden('.d-sidebar'))
    assert.equal(await focused(), 'Navigation')
    // And by pointer, the backdrop closes it too.
    await menu.click()
    assert.ok(await page.isVisible('.d-sidebar'))
    await page.mouse.click(380, 400)
    assert.ok(await page.isHidden('.d-sidebar'))
    await menu.click()
    assert.ok(await page.isVisible('.d-sidebar'))
    await page.screenshot({ path: join(artifacts, 'mobile-sidebar.png') })
    await Promise.all([page.waitForURL(`${origin}/`), page.click('.d-sidebar >> text=Welcome to Acme')])
    assert.ok(await page.isHidden('.d-sidebar'))
    assert.deepEqual(await axeProblems(page), [])
  })

  await t.test('the 404 page and the site work without script errors', async () => {
    await page.goto(`${origin}/missing/page/`)
    assert.deepEqual(errors, [])
  })
})
