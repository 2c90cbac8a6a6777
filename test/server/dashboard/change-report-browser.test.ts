/**
 * The dashboard's "Changes against live" on a preview's deployment page, in Chromium on a real socket:
 * the change report's changed page with its Markdown diff, the broken links, the redirect to add, and
 * the screenshots of live and preview side by side with their difference image, loaded from the API
 * host with the session cookie. axe-core finds no serious or critical violation, light or dark.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import getPort from 'get-port'
import type { Page } from 'playwright-core'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { chromiumPath, launchChromium, noChromium } from '../../chromium.js'
import { createProject, deploy, signIn, testApp } from '../helper.js'
import { liveFiles, previewFiles, siteOf } from '../previews/sites.js'

const axeSource = readFileSync(fromPackageRoot('node_modules', 'axe-core', 'axe.min.js'), 'utf8')

async function seriousViolations(page: Page): Promise<string[]> {
  const problems: string[] = []
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource })
    const violations = (await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
      ).axe
      return (await axe.run(document)).violations
    })) as { id: string; impact: string | null; nodes: { target: string[] }[] }[]
    for (const violation of violations)
      if (violation.impact === 'serious' || violation.impact === 'critical')
        problems.push(
          `${colorScheme} ${violation.id} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        )
  }
  return problems
}

test('a preview deployment page shows its changes against live, side by side', {
  skip: noChromium,
}, async (t) => {
  const port = await getPort({ host: '127.0.0.1' })
  const host = `localhost:${port}`
  const app = await testApp(t, 'sqlite', { baseDomain: host, apiHost: host, chromiumPath })
  await app.listen({ port, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${port}`
  const token = await signIn(app, 'ada@example.com')
  const project = await createProject(app, token, 'acme')
  await deploy(app, token, 'acme', siteOf(liveFiles()))
  const preview = await deploy(app, token, 'acme', siteOf(liveFiles(), previewFiles()), { promote: false })

  const browser = await launchChromium()
  t.after(() => browser.close())
  // axe is injected as a script, which the dashboard's CSP (scripts from its own origin only) refuses.
  const context = await browser.newContext({ bypassCSP: true })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(`${origin}/dashboard/`)
  await page.getByRole('link', { name: /Sign in with email/ }).click()
  await page.getByLabel(/email/i).fill('ada@example.com')
  await Promise.all([page.waitForURL(`${origin}/dashboard/`), page.keyboard.press('Enter')])
  await page.getByRole('heading', { name: 'Projects' }).waitFor()

  await page.goto(`${origin}/dashboard/projects/${project.id}/deployments/${preview.id}`)
  await page.getByRole('heading', { name: 'Changes against live' }).waitFor()
  await page.locator('#change-report').waitFor({ timeout: 120_000 })
  assert.match(await page.locator('#change-summary').innerText(), /1 changed, 1 added, 1 removed/)
  assert.match(await page.locator('#report-links').innerText(), /no such anchor/)
  assert.match(
    await page.locator('#report-redirects').innerText(),
    /"source":"\/billing","destination":"\/payments"/,
  )
  await page.locator('#report-changed summary').first().click()
  assert.match(await page.locator('#report-changed pre.diff').first().innerText(), /\+## Installation/)
  const images = page.locator('#screenshots img')
  assert.equal(
    await images.count(),
    2 * 3 + 2,
    'setup: live, preview, difference; payments: preview; × 2 widths',
  )
  // Every image loaded (the session cookie reaches the API host's image route).
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('#screenshots img')].every(
      (image) => image.complete && image.naturalWidth > 0,
    ),
  )
  assert.deepEqual(await seriousViolations(page), [])
  assert.deepEqual(pageErrors, [])
})
