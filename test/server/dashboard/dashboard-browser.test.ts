/**
 * The dashboard in Chromium, end to end on a real socket: sign in through the local form and through
 * a real OpenID Connect issuer; create a project; push with the CLI's own deploy code and watch the
 * deployment page change status without a reload; open the preview; roll back; create and revoke a
 * deploy key (the revoked key is refused by a push); sign out. A second user reaches none of it, by
 * page or by API call; a cross-site form post and a request without the CSRF header are refused.
 * axe-core runs on every page; screenshots at 390 and 1280 px in light and dark go to
 * test-artifacts/dashboard/ (to docs/screenshots/dashboard/ with UPDATE=1).
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import getPort from 'get-port'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ApiClient, ApiError } from '../../../cli/api.js'
import { deploy } from '../../../cli/push/deploy.js'
import type { PushReporter } from '../../../cli/push/progress.js'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { defaultConfig } from '../../../server/config.js'
import { launchChromium, noChromium } from '../../chromium.js'
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcIssuer } from '../auth/oidc-issuer.js'
import { startTestDnsServer } from '../domains/dns-server.js'
import { fixtureSite, testApp } from '../helper.js'

const axeSource = readFileSync(fromPackageRoot('node_modules', 'axe-core', 'axe.min.js'), 'utf8')
/**
 * Every width × mode, checked in under docs/, when regenerated on purpose (UPDATE=1); else both widths
 * and both modes once each, beside the other test artefacts.
 */
const update = process.env.UPDATE === '1'
const screenshots = update
  ? fromPackageRoot('docs', 'screenshots', 'dashboard')
  : fromPackageRoot('test-artifacts', 'dashboard')
const shots: [number, 'light' | 'dark'][] = update
  ? [
      [390, 'light'],
      [390, 'dark'],
      [1280, 'light'],
      [1280, 'dark'],
    ]
  : [
      [390, 'dark'],
      [1280, 'light'],
    ]

const quiet: PushReporter = {
  phase: () => {},
  line: () => {},
  startUpload: () => ({ advance: () => {}, stop: () => {} }),
  startBuild: () => ({ update: () => {}, stop: () => {} }),
}

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** Serious and critical axe violations of the page as it is now, in both colour modes. */
async function axeProblems(page: Page): Promise<string[]> {
  const problems: string[] = []
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource })
    // Every rule in light mode; in dark mode only colours change, so only contrast is checked again.
    const violations = (await page.evaluate(async (onlyContrast) => {
      const axe = (
        window as unknown as {
          axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> }
        }
      ).axe
      const options = onlyContrast ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {}
      return (await axe.run(document, options)).violations
    }, colorScheme === 'dark')) as AxeViolation[]
    for (const violation of violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue
      problems.push(
        `${colorScheme} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      )
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  return problems
}

/** axe (the bundled script is injected into a page whose CSP allows only same-origin scripts). */
async function checkPage(context: BrowserContext, url: string, name: string, problems: string[]) {
  const page = await context.newPage()
  await page.goto(url)
  await page.locator('main h1').first().waitFor()
  await page.waitForLoadState('networkidle')
  problems.push(...(await axeProblems(page)).map((problem) => `${name}: ${problem}`))
  for (const [width, colorScheme] of shots) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await page.emulateMedia({ colorScheme })
    await page.screenshot({ path: `${screenshots}/${name}-${width}-${colorScheme}.png`, fullPage: true })
  }
  // Nothing is wider than a 320 px screen, not even inside a table's scroll region: tables become cards.
  await page.setViewportSize({ width: 320, height: 700 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
  if (overflow > 320) problems.push(`${name} is ${overflow} px wide at 320 px`)
  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.table-scroll')]
      .filter((region) => region.scrollWidth > region.clientWidth)
      .map(
        (region) =>
          `${region.getAttribute('aria-label')} is ${region.scrollWidth} px wide in ${region.clientWidth} px`,
      ),
  )
  problems.push(...hidden.map((problem) => `${name} at 320 px: ${problem}`))
  await page.close()
}

async function signInLocally(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/dashboard/`)
  await page.getByRole('link', { name: /Sign in with email/ }).click()
  await page.getByLabel(/email/i).fill(email)
  await Promise.all([page.waitForURL(`${origin}/dashboard/`), page.keyboard.press('Enter')])
  await page.getByRole('heading', { name: 'Projects' }).waitFor()
}

test('the dashboard: sign-in, projects, deployments, keys, domains, isolation and CSRF in Chromium', {
  skip: noChromium,
}, async (t) => {
  const port = await getPort({ host: '127.0.0.1' })
  const host = `localhost:${port}`
  const dns = await startTestDnsServer()
  t.after(() => dns.close())
  const app = await testApp(t, 'sqlite', {
    baseDomain: host,
    apiHost: host,
    domains: { ...defaultConfig().domains, dnsResolver: dns.address },
    // A server that takes GitHub's pushes (one without refuses a GitHub connection, naming the settings).
    git: {
      ...defaultConfig().git,
      github: { ...defaultConfig().git.github, webhookSecret: 'dashboard-test-github-secret' },
    },
  })
  await app.listen({ port, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${port}`
  mkdirSync(screenshots, { recursive: true })

  const browser: Browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1'])
  t.after(() => browser.close())
  const ada = await browser.newContext()
  const page = await ada.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  const started = Date.now()

  await signInLocally(page, origin, 'ada@example.com')
  const cookies = await ada.cookies(origin)
  const session = cookies.find((cookie) => cookie.name === 'docs_session')
  assert.ok(session, 'a session cookie is set')
  assert.equal(session.httpOnly, true)
  assert.equal(session.sameSite, 'Lax')
  assert.equal(session.domain, '127.0.0.1', 'host-only, on the API host')
  const [row] = await app.db.selectFrom('dashboard_sessions').selectAll().execute()
  assert.ok(row && row.token_hash !== session.value, 'the database keeps only a hash')

  // A bad slug: the API's issue shows beside the field.
  await page.getByLabel('Name', { exact: true }).fill('Acme docs')
  await page.getByLabel('Slug').fill('Not A Slug!')
  await page.getByRole('button', { name: 'Create project' }).click()
  await page.locator('#new-project-slug-error').filter({ hasText: /./ }).waitFor()
  assert.equal(await page.getByLabel('Slug').getAttribute('aria-invalid'), 'true')
  await page.getByLabel('Slug').fill('acme')
  await Promise.all([
    page.waitForURL(/\/dashboard\/projects\/prj_/),
    page.getByRole('button', { name: 'Create project' }).click(),
  ])
  const projectUrl = page.url()
  const projectId = projectUrl.split('/').pop() ?? ''
  await page.getByRole('heading', { name: 'Acme docs' }).waitFor()

  // A deploy key from Settings pushes with the CLI's deploy code; the finalize waits for the test.
  await page.goto(`${projectUrl}/settings`)
  await page.getByLabel('Key name').fill('CI')
  await page.getByRole('button', { name: 'Create key' }).click()
  const deployKey = await page.locator('#new-key-value').inputValue()
  assert.match(deployKey, /^dk_/)
  await page.getByRole('cell', { name: 'CI', exact: true }).waitFor()

  let releaseFinalize = () => {}
  const finalizeGate = new Promise<void>((resolve) => {
    releaseFinalize = resolve
  })
  const gatedFetch: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/finalize')) await finalizeGate
    return fetch(input, init)
  }
  const pushWith = (
    token: string,
    files: Map<string, Buffer>,
    message: string,
    fetchImpl: typeof fetch = fetch,
  ) =>
    deploy({
      client: new ApiClient({ apiUrl: origin, token: () => token, fetch: fetchImpl, attempts: 1 }),
      slug: 'acme',
      files,
      branch: 'main',
      commitMessage: message,
      reporter: quiet,
      pollIntervalMs: 100,
    })
  const site = await fixtureSite('minimal')
  const firstPush = pushWith(deployKey, site, 'First version', gatedFetch)

  // The overview shows the new deployment without a reload, and its page follows the build.
  await page.goto(projectUrl)
  await page.getByRole('cell', { name: 'First version' }).waitFor()
  await page.locator('tbody tr a').first().click()
  await page.locator('#deployment-status').waitFor()
  const seen: string[] = await page.evaluate(() => {
    const statuses: string[] = []
    const record = () => {
      const text = document.querySelector('#deployment-status .badge')?.textContent ?? ''
      if (statuses.at(-1) !== text) statuses.push(text)
    }
    record()
    new MutationObserver(record).observe(document.getElementById('main') as HTMLElement, {
      subtree: true,
      childList: true,
    })
    ;(window as unknown as { statuses: string[] }).statuses = statuses
    return statuses
  })
  assert.deepEqual(seen, ['uploading'])
  let navigations = 0
  page.on('framenavigated', () => navigations++)
  releaseFinalize()
  const first = await firstPush
  assert.equal(first.deployment.status, 'ready', first.error ?? '')
  await page.locator('#deployment-status .badge.ready').waitFor()
  const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses)
  assert.equal(statuses[0], 'uploading')
  assert.equal(statuses.at(-1), 'ready')
  assert.equal(navigations, 0, 'no reload')
  t.diagnostic(`statuses seen live: ${statuses.join(' → ')}`)

  // The preview opens the built site.
  const [preview] = await Promise.all([page.waitForEvent('popup'), page.locator('#preview-link').click()])
  await preview.waitForLoadState()
  assert.match(await preview.title(), /\S/)
  assert.match(preview.url(), /--acme\.localhost/)
  await preview.close()

  // A second push goes live; rolling back from the first deployment's page makes the first live again.
  const changed = new Map(site)
  changed.set(
    'index.mdx',
    Buffer.from(`${site.get('index.mdx')?.toString('utf8') ?? ''}\n\nSee [the guide](/missing-page).\n`),
  )
  const second = await pushWith(deployKey, changed, 'Second version')
  assert.equal(second.deployment.live, true)
  await page.goto(projectUrl)
  const secondRow = page.locator(`tr[data-deployment="${second.deployment.id}"]`)
  await secondRow.locator('td').last().filter({ hasText: '1' }).waitFor()
  await page.goto(`${projectUrl}/deployments/${second.deployment.id}`)
  assert.equal(await page.locator('#changed-files').textContent(), `1 since ${first.deployment.id}`)
  // Its warning, under its file, with the line.
  const warning = page.locator('#diagnostics .diagnostic-file', {
    has: page.getByRole('heading', { name: 'index.mdx' }),
  })
  assert.match(
    (await warning.locator('li').textContent()) ?? '',
    /warning line 9:5: Unexpected link to "\/missing-page"/,
  )
  assert.equal(
    await page.locator('#files tr', { hasText: 'index.mdx' }).locator('.badge').textContent(),
    'changed',
  )
  await page.goto(`${projectUrl}/deployments/${first.deployment.id}`)
  // By keyboard: Escape cancels the confirmation; Tab to its confirm button and Enter rolls back.
  await page.getByRole('button', { name: 'Roll back to this deployment' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('dialog').waitFor()
  await page.keyboard.press('Escape')
  await page.getByRole('dialog').waitFor({ state: 'detached' })
  assert.equal((await app.repos.projects.findById(projectId))?.live_deployment_id, second.deployment.id)
  await page.getByRole('button', { name: 'Roll back to this deployment' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('dialog').waitFor()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await page.locator('#deployment-status .badge.live').waitFor()
  const project = await app.repos.projects.findById(projectId)
  assert.equal(project?.live_deployment_id, first.deployment.id)

  // Settings: an empty name is refused beside its field; a new one is saved.
  await page.goto(`${projectUrl}/settings`)
  await page.getByLabel('Name', { exact: true }).fill('')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.locator('#general-settings-name-error').filter({ hasText: /./ }).waitFor()
  await page.getByLabel('Name', { exact: true }).fill('Acme handbook')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByRole('heading', { name: 'Acme handbook' }).waitFor()

  // A key revoked elsewhere meanwhile: the dashboard says what the API answered.
  await page.getByLabel('Key name').fill('Spare')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByRole('cell', { name: 'Spare', exact: true }).waitFor()
  const spare = (await app.repos.deployKeys.listActive(projectId)).find((key) => key.name === 'Spare')
  assert.ok(spare && (await app.repos.deployKeys.revoke(projectId, spare.id)))
  await page.getByRole('button', { name: 'Revoke Spare' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  assert.match((await page.locator('#action-error').textContent()) ?? '', /\S/)

  // Revoke the key: a push with it is refused.
  await page.getByRole('button', { name: 'Revoke CI' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await page.getByRole('cell', { name: 'No deploy keys.' }).waitFor()
  await assert.rejects(pushWith(deployKey, changed, 'After revoke'), (error: unknown) => {
    assert.ok(error instanceof ApiError)
    assert.equal(error.status, 401)
    return true
  })

  // Domains: add one, its DNS records are listed, remove it.
  await page.goto(`${projectUrl}/domains`)
  await page.getByLabel('Host name').fill('docs.example.com')
  await page.getByRole('button', { name: 'Add domain' }).click()
  await page.getByRole('heading', { name: 'docs.example.com' }).waitFor()
  assert.ok((await page.locator('#domain-list tbody tr').count()) >= 2)
  // Verify now with no records: failed, and why; with the records from the table: verified.
  await page.getByRole('button', { name: 'Verify now' }).click()
  await page.locator('#domain-list .badge.failed').waitFor()
  assert.match((await page.locator('#domain-list p.error').textContent()) ?? '', /^record_missing: /)
  const txt = page.locator('#domain-list tbody tr', { hasText: 'TXT' })
  dns.set((await txt.locator('td').nth(1).locator('code').textContent()) ?? '', 'TXT', [
    (await txt.locator('td').nth(2).locator('code').textContent()) ?? '',
  ])
  dns.set('docs.example.com', 'CNAME', ['acme.localhost'])
  await page.getByRole('button', { name: 'Verify now' }).click()
  await page.locator('#domain-list .badge.verified').waitFor()

  // Git: a bad clone URL is refused beside its field; a good one connects and shows the webhook.
  await page.goto(`${projectUrl}/git`)
  await page.getByText('Not connected').waitFor()
  await page.getByLabel('Repository URL').fill('git@github.com:acme/docs.git')
  await page.getByRole('button', { name: 'Connect' }).click()
  await page.locator('#git-connection-repositoryUrl-error').filter({ hasText: /./ }).waitFor()
  await page.getByLabel('Repository URL').fill('https://github.com/acme/docs.git')
  await page.getByRole('button', { name: 'Connect' }).click()
  await page.getByText('github: https://github.com/acme/docs').waitFor()
  assert.match((await page.locator('dd code').first().textContent()) ?? '', /\/webhooks\/github$/)

  // An empty key name is refused beside its field, in words.
  await page.goto(`${projectUrl}/settings`)
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.locator('#create-deploy-key-name-error').filter({ hasText: 'must not be empty' }).waitFor()
  // A key to list on the settings page, whose Revoke button must show on a phone too.
  await page.getByLabel('Key name').fill('GitHub Actions for the handbook')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByRole('cell', { name: 'GitHub Actions for the handbook', exact: true }).waitFor()
  const handbookKey = await page.locator('#new-key-value').inputValue()

  // A live push without a commit message, then a preview (not made live).
  const pushAs = (promote: boolean, commitMessage?: string) =>
    deploy({
      client: new ApiClient({ apiUrl: origin, token: () => handbookKey, attempts: 1 }),
      slug: 'acme',
      files: changed,
      branch: 'main',
      commitMessage,
      promote,
      reporter: quiet,
      pollIntervalMs: 100,
    })
  const unnamed = await pushAs(true)
  assert.equal(unnamed.deployment.live, true)
  const previewPush = await pushAs(false, 'Preview of the next version')
  assert.equal(previewPush.deployment.status, 'ready')
  // The overview: no dangling separator, each deployment's id, the preview badged.
  await page.goto(projectUrl)
  await page.locator(`tr[data-deployment="${previewPush.deployment.id}"] .badge.preview`).waitFor()
  assert.equal(
    await page.locator('section[aria-labelledby="live-heading"] p').textContent(),
    `${unnamed.deployment.id} · main`,
  )
  assert.equal(
    await page
      .locator(`tr[data-deployment="${unnamed.deployment.id}"] td[data-label="Deployment"]`)
      .textContent(),
    unnamed.deployment.id,
  )
  // The projects list: the site's address as a link, the last deployment's status and time.
  await page.goto(`${origin}/dashboard/`)
  const card = page.locator('#project-list li', { hasText: 'Acme handbook' })
  assert.match(
    (await card.getByRole('link', { name: /acme\.localhost/ }).getAttribute('href')) ?? '',
    /^http:\/\/acme\.localhost:\d+\/$/,
  )
  assert.match((await card.locator('.last-deploy').textContent()) ?? '', /^ready last deploy \S/)

  // axe, screenshots and the width at 320 px on every page.
  // (A context that lets Playwright inject the axe script past the pages' CSP, with Ada's cookies.)
  const problems: string[] = []
  const auditStarted = Date.now()
  const audit = await browser.newContext({ bypassCSP: true, storageState: await ada.storageState() })
  await checkPage(audit, `${origin}/dashboard/`, 'projects', problems)
  await checkPage(audit, projectUrl, 'project', problems)
  await checkPage(audit, `${projectUrl}/deployments/${second.deployment.id}`, 'deployment', problems)
  await checkPage(audit, `${projectUrl}/settings`, 'settings', problems)
  await checkPage(audit, `${projectUrl}/domains`, 'domains', problems)
  await checkPage(audit, `${projectUrl}/git`, 'git', problems)
  await audit.close()
  const signedOut = await browser.newContext({ bypassCSP: true })
  await checkPage(signedOut, `${origin}/dashboard/`, 'sign-in', problems)
  await signedOut.close()
  assert.deepEqual(problems, [])
  t.diagnostic(`axe and screenshots of 7 pages took ${Date.now() - auditStarted} ms`)

  await page.goto(`${projectUrl}/domains`)
  await page.getByRole('button', { name: 'Remove' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await page.getByText('No custom domains.').waitFor()

  // CSRF: the session alone does nothing, from a script without the header or from another origin's form.
  const withoutHeader = await page.evaluate(async () => {
    const response = await fetch('/projects/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Forged', slug: 'forged' }),
    })
    return { status: response.status, body: await response.json() }
  })
  assert.equal(withoutHeader.status, 401)
  assert.match(withoutHeader.body.error, /CSRF/)
  const attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end(`<!doctype html><form method="post" action="${origin}/projects/" enctype="text/plain">
<input name='{"name":"Forged","slug":"forged2","x":"' value='"}'></form><script>document.forms[0].submit()</script>`)
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  t.after(() => attacker.close())
  const attackerPort = (attacker.address() as AddressInfo).port
  const forged = await ada.newPage()
  // Same site (127.0.0.1), another origin: the Lax cookie goes along, the missing header refuses it.
  let answer = forged.waitForResponse(`${origin}/projects/`)
  await forged.goto(`http://127.0.0.1:${attackerPort}/`)
  assert.equal((await answer).status(), 403)
  assert.match(((await (await answer).json()) as { error: string }).error, /CSRF/)
  // Another site: the browser does not even send the Lax cookie.
  answer = forged.waitForResponse(`${origin}/projects/`)
  await forged.goto(`http://localhost:${attackerPort}/`)
  assert.equal((await (await answer).request().allHeaders()).cookie, undefined)
  assert.ok((await answer).status() >= 400)
  await forged.close()
  const owned = await app.repos.projects.listByOwner(project?.owner_id ?? '')
  assert.deepEqual(
    owned.map((row) => row.slug),
    ['acme'],
  )

  // Sign out ends the server session: the old cookie no longer works.
  await page.goto(`${origin}/dashboard/`)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.getByRole('link', { name: /Sign in/ }).waitFor()
  assert.equal((await app.db.selectFrom('dashboard_sessions').selectAll().execute()).length, 0)
  const replay = await fetch(`${origin}/projects/`, { headers: { cookie: `docs_session=${session.value}` } })
  assert.equal(replay.status, 401)

  // A second user: every page and action of Ada's project is a 404.
  const bob = await browser.newContext()
  const bobPage = await bob.newPage()
  await signInLocally(bobPage, origin, 'bob@example.com')
  assert.equal(await bobPage.locator('#project-list li').count(), 0)
  for (const path of ['', '/settings', '/domains', '/git', `/deployments/${first.deployment.id}`]) {
    const response = await bobPage.goto(`${projectUrl}${path}`)
    assert.equal(response?.status(), 404, path)
  }
  await bobPage.goto(`${origin}/dashboard/`)
  const actions = await bobPage.evaluate(
    async ({ projectId, deploymentId }) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
      const call = async (method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = { 'x-csrf-token': csrf }
        const init: RequestInit = { method, headers }
        if (body !== undefined) {
          headers['content-type'] = 'application/json'
          init.body = JSON.stringify(body)
        }
        return `${method} ${path} ${(await fetch(path, init)).status}`
      }
      return [
        await call('GET', `/projects/${projectId}`),
        await call('PATCH', `/projects/${projectId}`, { name: 'Mine' }),
        await call('GET', '/projects/slug/acme/deployments'),
        await call('POST', `/projects/slug/acme/deployments/${deploymentId}/promote`),
        await call('POST', `/projects/${projectId}/deploy-keys`, { name: 'stolen' }),
        await call('GET', `/projects/${projectId}/domains`),
        await call('GET', `/projects/${projectId}/git`),
        await call('DELETE', `/projects/${projectId}/git`),
        await call('DELETE', `/projects/${projectId}`),
      ]
    },
    { projectId, deploymentId: second.deployment.id },
  )
  for (const line of actions) assert.match(line, / 404$/, line)
  // Bob deletes a project of his own, once its slug is typed.
  await bobPage.getByLabel('Name', { exact: true }).fill('Scratch')
  await bobPage.getByLabel('Slug').fill('scratch')
  await Promise.all([
    bobPage.waitForURL(/\/dashboard\/projects\/prj_/),
    bobPage.getByRole('button', { name: 'Create project' }).click(),
  ])
  await bobPage.goto(`${bobPage.url()}/settings`)
  const remove = bobPage.getByRole('button', { name: 'Delete project' })
  assert.equal(await remove.isDisabled(), true)
  await bobPage.getByLabel('Type the slug to confirm').fill('scratch')
  await Promise.all([bobPage.waitForURL(`${origin}/dashboard/`), remove.click()])
  await bobPage.getByText('No projects yet').waitFor()
  assert.equal(await app.repos.projects.findBySlug('scratch'), undefined)
  await bob.close()
  assert.deepEqual(pageErrors, [])
  t.diagnostic(`local-provider walkthrough took ${Date.now() - started} ms`)

  await t.test('sign-in through an OpenID Connect issuer', async (t) => {
    const oidcPort = await getPort({ host: '127.0.0.1' })
    const publicUrl = `http://localhost:${oidcPort}`
    const { issuer } = await startOidcIssuer(t, `${publicUrl}/oauth/callback`)
    const oidcApp = await testApp(t, 'sqlite', {
      apiHost: `localhost:${oidcPort}`,
      baseDomain: `localhost:${oidcPort}`,
      signIn: {
        ...defaultConfig().signIn,
        publicUrl,
        oidcIssuer: issuer,
        oidcClientId: OIDC_CLIENT_ID,
        oidcClientSecret: OIDC_CLIENT_SECRET,
      },
    })
    await oidcApp.listen({ port: oidcPort, host: '127.0.0.1' })
    const context = await browser.newContext()
    const oidcPage = await context.newPage()
    await oidcPage.goto(`${publicUrl}/dashboard/`)
    await oidcPage.getByRole('link', { name: /Sign in with/ }).click()
    await oidcPage.locator('input[name="login"]').fill('grace')
    await oidcPage.locator('input[name="password"]').fill('anything')
    await oidcPage.locator('button[type="submit"]').click()
    await oidcPage.locator('button[type="submit"]').click()
    await oidcPage.waitForURL(`${publicUrl}/dashboard/`)
    await oidcPage.getByRole('heading', { name: 'Projects' }).waitFor()
    assert.equal(await oidcPage.locator('.who').textContent(), 'grace@example.org')
    await context.close()
  })
})
