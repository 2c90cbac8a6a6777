/**
 * The local sign-in page in a real browser (Chromium): it passes an axe accessibility check, works
 * under its own Content-Security-Policy, and a keyboard user can sign the CLI in with it.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { signIn } from '../../../cli/auth/login.js'
import { launchChromium } from '../../chromium.js'
import { listeningTestApp, watchForAuthorizeUrl } from './harness.js'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

test('the sign-in page is accessible and signs the CLI in from a real browser', async (t) => {
  const { apiUrl } = await listeningTestApp(t)
  const configDir = await mkdtemp(join(tmpdir(), 'docsctl-browser-'))
  t.after(() => rm(configDir, { recursive: true, force: true }))

  const { stdout, authorizeUrl } = watchForAuthorizeUrl()
  const login = signIn({
    apiUrl,
    port: 0,
    timeoutSeconds: 60,
    openBrowser: false,
    stdout,
    env: { DOCSCTL_CONFIG_DIR: configDir },
  })
  // Awaited at the end; this only keeps an early failure from also reporting the login's timeout.
  login.catch(() => {})

  const browser = await launchChromium()
  t.after(() => browser.close())
  const violationsOfCsp: string[] = []
  const page = await browser.newPage()
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violationsOfCsp.push(message.text())
  })
  await page.goto(await authorizeUrl)
  assert.equal(await page.title(), 'Sign in to docsctl')
  assert.equal(await page.locator('h1').textContent(), 'Sign in to docsctl')
  // The styles apply under the page's own policy (an inline <style>, no scripts).
  const buttonColor = await page
    .locator('button')
    .evaluate((element) => getComputedStyle(element).backgroundColor)
  assert.equal(buttonColor, 'rgb(36, 81, 214)')
  assert.deepEqual(violationsOfCsp, [])

  // axe runs in a second page of the same HTML with script injection allowed; the real page has no scripts.
  const auditContext = await browser.newContext({ bypassCSP: true })
  const audit = await auditContext.newPage()
  await audit.setContent(await page.content())
  await audit.addScriptTag({ path: axePath })
  const violations = await audit.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string }[] }> } }).axe
    return (await axe.run()).violations.map((violation) => violation.id)
  })
  assert.deepEqual(violations, [])
  await auditContext.close()

  // A keyboard user: the email field has focus, Enter submits.
  await page.keyboard.type('browser@example.com')
  await Promise.all([page.waitForURL(/127\.0\.0\.1:\d+\/callback/), page.keyboard.press('Enter')])
  assert.match((await page.locator('h1').textContent()) ?? '', /Signed in/)
  const { user } = await login
  assert.equal(user.email, 'browser@example.com')
})
