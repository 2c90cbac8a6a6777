/**
 * The manual as `npm run docs` shows it (`docsctl dev docs`), in Chromium: the home page and the
 * generated docs-server settings reference render in light and dark with no error panel. Screenshots go to
 * test-artifacts/docs/, and to docs/screenshots/ when regenerated on purpose
 * (`npm run build && UPDATE=1 node test/run.js manual-browser`).
 */
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { startDevServer } from '../../cli/dev/server.js'
import { fromPackageRoot } from '../../lib/package-root.js'
import { launchChromium, noChromium } from '../chromium.js'

const screenshots = fromPackageRoot(
  ...(process.env.UPDATE === '1' ? ['docs', 'screenshots'] : ['test-artifacts', 'docs']),
)

const pages = [
  { name: 'home', path: '/', title: 'docsctl' },
  { name: 'reference-server-settings', path: '/reference/server-settings/', title: 'docs-server settings' },
]

test('the manual previews with docsctl dev: home and reference pages, light and dark', {
  skip: noChromium,
}, async (t) => {
  const log: string[] = []
  const server = await startDevServer({
    dir: fromPackageRoot('docs'),
    port: 0,
    log: (line) => log.push(line),
  })
  let serving = true
  t.after(() => serving && server.close())
  const browser = await launchChromium()
  t.after(() => browser.close())
  // Written once the preview has stopped: a file written into docs/ while it runs reloads the page.
  const shots = new Map<string, Buffer>()

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  for (const colorScheme of ['light', 'dark'] as const) {
    // Before loading: the shell picks its mode from the system's as the page starts.
    await page.emulateMedia({ colorScheme })
    for (const { name, path, title } of pages) {
      // The first visit compiles the page: the generated reference takes a few seconds on a busy machine.
      await page.goto(new URL(path, server.url).toString(), { timeout: 120_000 })
      assert.equal(await page.locator('h1').first().textContent(), title)
      assert.equal(await page.locator('#docsctl-errors').count(), 0, `${path} shows errors`)
      const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? '')
      assert.equal(theme, colorScheme, `${path} in ${colorScheme} mode`)
      shots.set(`${name}-${colorScheme}.png`, await page.screenshot())
    }
  }
  assert.deepEqual(
    log.filter((line) => /warning|error/i.test(line)),
    [],
  )
  await server.close()
  serving = false
  mkdirSync(screenshots, { recursive: true })
  for (const [file, png] of shots) writeFileSync(`${screenshots}/${file}`, png)
})
