/**
 * Reader insights end to end in Chromium, against a listening docs-server: a reader reads pages,
 * searches (one search finds nothing), answers "Was this page helpful?" with a comment, copies code
 * and opens a missing page; the counts then show in the REST API, in the dashboard's Insights tab
 * and in `docsctl insights --json`. A reader with Do-Not-Track or Global Privacy Control sends nothing.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import getPort from 'get-port'
import type { Browser, Page } from 'playwright-core'
import { writeSession } from '../../../cli/credentials.js'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { SESSION_COOKIE, sessionLifetimes } from '../../../server/auth/dashboard-session.js'
import { launchChromium, noChromium } from '../../chromium.js'
import { cleanEnv, runCli } from '../../cli/helpers/docs-server.js'
import { needs } from '../../tier.js'
import { bearer, createProject, deploy, signIn, testApp } from '../helper.js'

const encoder = new TextEncoder()
const site = new Map<string, Uint8Array>(
  Object.entries({
    'docs.json': JSON.stringify({
      name: 'Acme',
      navigation: { groups: [{ group: 'Guide', pages: ['index', 'guide/setup', 'guide/deploy'] }] },
    }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nStart with the [setup guide](/guide/setup).\n',
    'guide/setup.mdx':
      '---\ntitle: Setup guide\n---\n\nInstall the tool:\n\n```bash\nnpm install acme\n```\n\nThen configure it.\n',
    'guide/deploy.mdx': '---\ntitle: Deploying\n---\n\nPush with the CLI.\n',
  }).map(([path, text]) => [path, encoder.encode(text)]),
)

/** Waits until `check` holds, re-reading; beacons are sent after the page moves on, so counts arrive late. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await read()
  for (let attempt = 0; attempt < 100 && !check(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await read()
  }
  return value
}

/** Every request a page makes to the events endpoint. */
function beaconsOf(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/_docs/events')) sent.push(request.postData() ?? '')
  })
  page.on('response', async (response) => {
    if (response.url().includes('/_docs/events') && response.status() !== 204)
      sent.push(`${response.status()} ${await response.text().catch(() => '')}`)
  })
  return sent
}

test('reader insights in Chromium: collected, counted, shown in the API, dashboard and CLI', {
  skip: noChromium || needs('a built binary'),
}, async (t) => {
  const port = await getPort({ host: '127.0.0.1' })
  const host = `localhost:${port}`
  const app = await testApp(t, 'sqlite', { baseDomain: host, apiHost: host })
  const token = await signIn(app)
  const project = await createProject(app, token, 'acme')
  const deployed = await deploy(app, token, 'acme', site)
  assert.equal(deployed.finalized.statusCode, 200, deployed.finalized.body)
  await app.listen({ port, host: '127.0.0.1' })
  const origin = `http://acme.${host}`
  const browser: Browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1'])
  t.after(() => browser.close())

  const report = () =>
    app
      .inject({ url: `/projects/${project.id}/insights`, headers: bearer(token) })
      .then((answer) => answer.json())

  await t.test('a reader with Do-Not-Track or Global Privacy Control sends nothing', async () => {
    for (const optOut of [
      "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })",
      "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })",
    ]) {
      const context = await browser.newContext()
      await context.addInitScript(optOut)
      const page = await context.newPage()
      const sent = beaconsOf(page)
      await page.goto(`${origin}/guide/setup/`)
      assert.equal(await page.isVisible('[data-feedback]'), false, 'no feedback form either')
      await page.click('button.copy').catch(() => undefined)
      await page.goto(`${origin}/`)
      await page.waitForLoadState('networkidle')
      assert.deepEqual(sent, [])
      await context.close()
    }
    assert.equal(await app.repos.insights.countEvents(project.id), 0)
  })

  await t.test('reading, searching, feedback, copying and a missing page are counted', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const sent = beaconsOf(page)
    await page.goto(`${origin}/`)
    // Search, open the first result for "setup": a search with a result opened, then a view.
    await page.keyboard.press('Control+k')
    await page.fill('.d-search-dialog input', 'setup')
    await page.waitForSelector('.d-search-results a')
    await page.click('.d-search-results a >> nth=0')
    await page.waitForURL(`${origin}/guide/setup/`)
    // A search that finds nothing, closed by a click beside the dialog.
    await page.keyboard.press('Control+k')
    await page.fill('.d-search-dialog input', 'kubernetes')
    await page.waitForSelector('.d-search-status:has-text("No results")')
    await page.mouse.click(5, 5)
    await page.waitForSelector('.d-search-dialog', { state: 'hidden' })
    // Copy the code block, then "not helpful" with a comment.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    await page.click('button.copy >> nth=0')
    await page.click('[data-feedback] [data-helpful="no"]')
    await page.fill('#d-feedback-comment', 'Step 2 is missing the config file')
    await page.click('.d-feedback-send')
    await page.waitForSelector('.d-feedback-thanks:visible')
    await page.goto(`${origin}/guide/setpu/`)
    await page.waitForLoadState('networkidle')
    assert.equal(sent.length, 7, `beacons sent: ${sent.join(' | ')}`)
    await context.close()

    const counted = await eventually(report, (body) => body.notFound.length > 0 && body.comments.length > 0)
    const today = counted.days.at(-1)
    assert.equal(today.views, 2)
    assert.equal(today.visitors, 1)
    assert.deepEqual(counted.pages, [
      { key: '', total: 1 },
      { key: 'guide/setup/', total: 1 },
    ])
    assert.deepEqual(counted.searches, [
      { key: 'kubernetes', total: 1 },
      { key: 'setup', total: 1 },
    ])
    assert.equal(counted.searchesWithoutResults[0].key, 'kubernetes')
    assert.deepEqual(counted.feedback, [{ path: 'guide/setup/', helpful: 0, notHelpful: 1 }])
    assert.equal(counted.comments[0].comment, 'Step 2 is missing the config file')
    assert.deepEqual(counted.copies, [{ key: 'guide/setup/', total: 1 }])
    assert.deepEqual(counted.notFound, [
      { key: 'guide/setpu/', total: 1, redirect: { source: '/guide/setpu/', destination: '/guide/setup/' } },
    ])
  })

  await t.test('the dashboard shows the same counts', async () => {
    const user = await app.repos.users.findOrCreate('ada@example.com')
    const session = await app.repos.dashboardSessions.create(user.id, sessionLifetimes)
    // The audit script is injected inline, which the dashboard's policy (rightly) refuses.
    const context = await browser.newContext({ bypassCSP: true })
    await context.addCookies([{ name: SESSION_COOKIE, value: session.token, domain: 'localhost', path: '/' }])
    const page = await context.newPage()
    await page.goto(`http://${host}/dashboard/projects/${project.id}/insights`)
    await page.waitForSelector('#insights-summary')
    assert.equal(await page.textContent('#insights-summary'), '2 page views · 1 daily visitors')
    assert.ok(await page.isVisible('svg.chart'))
    assert.match((await page.textContent('#searches-without-results-table')) ?? '', /kubernetes/)
    assert.match((await page.textContent('#comments-table')) ?? '', /Step 2 is missing the config file/)
    assert.match((await page.textContent('#pages-not-found-table')) ?? '', /"destination":"\/guide\/setup\/"/)
    // No serious or critical accessibility problem, in either colour mode.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      if (!(await page.evaluate(() => 'axe' in window)))
        await page.addScriptTag({
          content: readFileSync(fromPackageRoot('node_modules', 'axe-core', 'axe.min.js'), 'utf8'),
        })
      const problems = (await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (context: Document) => Promise<{
                violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[]
              }>
            }
          }
        ).axe
        return (await axe.run(document)).violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map(
            (violation) =>
              `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          )
      })) as string[]
      assert.deepEqual(problems, [], colorScheme)
    }
    await context.close()
  })

  await t.test('docsctl insights prints the same counts', async () => {
    const work = await mkdtemp(join(tmpdir(), 'docsctl-insights-'))
    t.after(() => rm(work, { recursive: true, force: true }))
    const apiUrl = `http://${host}`
    const env = cleanEnv({ DOCSCTL_CONFIG_DIR: join(work, 'config'), DOCSCTL_API_URL: apiUrl })
    await writeSession(
      {
        apiUrl,
        accessToken: token,
        refreshToken: null,
        expiresAt: null,
        tokenEndpoint: `${apiUrl}/oauth/token`,
        email: 'ada@example.com',
      },
      env,
    )
    const json = await runCli(['insights', '--project', 'acme', '--json'], { env, cwd: work })
    assert.equal(json.code, 0, json.stderr)
    const printed = JSON.parse(json.stdout)
    assert.equal(printed.days.at(-1).views, 2)
    assert.deepEqual(printed.copies, [{ key: 'guide/setup/', total: 1 }])
    const text = await runCli(['insights', '--project', 'acme', '--days', '7'], { env, cwd: work })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /2 page views, 1 daily visitors/)
    assert.match(text.stdout, /Searches without results\n.*\nkubernetes +1 +-\n/)
    // --csv prints the file the dashboard exports, byte for byte.
    const csv = await runCli(['insights', '--project', 'acme', '--days', '7', '--csv'], { env, cwd: work })
    assert.equal(csv.code, 0, csv.stderr)
    const exported = await app.inject({
      url: `/projects/${project.id}/insights.csv?from=${printed.days.at(-7).day}&to=${printed.days.at(-1).day}`,
      headers: bearer(token),
    })
    assert.equal(exported.statusCode, 200, exported.body)
    assert.equal(csv.stdout, exported.body)
    assert.match(csv.stdout, /^table,key,day,total,detail\r\n/)
    assert.match(csv.stdout, /\r\ncopies,guide\/setup\/,,1,\r\n/)
    const both = await runCli(['insights', '--project', 'acme', '--csv', '--json'], { env, cwd: work })
    assert.equal(both.code, 1)
    assert.match(both.stdout + both.stderr, /Give --csv or --json, not both/)
    const bad = await runCli(['insights', '--project', 'acme', '--days', '0'], { env, cwd: work })
    assert.equal(bad.code, 1)
    assert.match(bad.stdout + bad.stderr, /--days must be a whole number from 1 to 366/)
    const off = await runCli(['insights', '--project', 'acme', '--off'], { env, cwd: work })
    assert.equal(off.code, 0, off.stderr)
    assert.match(off.stdout, /Insights of acme are off/)
    assert.equal((await report()).enabled, false)
    assert.match(
      text.stdout,
      /\/guide\/setpu\/ +1 +\{"source": "\/guide\/setpu\/", "destination": "\/guide\/setup\/"\}/,
    )
  })
})
