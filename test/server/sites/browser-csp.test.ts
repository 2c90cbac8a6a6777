/**
 * The site policies in a real browser (Chromium through playwright-core), against the real server:
 * the starter template deployed through the API works with no Content-Security-Policy violation, and
 * an uploaded SVG and an XHTML-namespaced XML file holding script do not run it on the site origin.
 * A control serves the same files without the policy and sees their script run, so the detector works.
 */
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import getPort from 'get-port'
import type { ConsoleMessage, Page } from 'playwright-core'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { launchChromium, noChromium } from '../../chromium.js'
import { createProject, deploy, signIn, testApp } from '../helper.js'

/** Each uploaded file's script, if it ever runs, leaves three traces: a log line, an attribute, storage. */
const marker = (name: string) =>
  `console.log('SCRIPT RAN ${name}');document.documentElement.setAttribute('data-ran','${name}');try{localStorage.setItem('ran-${name}','yes')}catch(e){}`
const uploads = {
  'uploads/diagram.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>${marker('svg')}</script><rect width="10" height="10"/></svg>`,
  'uploads/feed.xml': `<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>feed</title></head><body><p>feed</p><script>${marker('xml')}</script></body></html>`,
}

/** The starter template as `docsctl new` writes it, plus the uploads, referenced from its home page. */
async function starterSite(): Promise<Map<string, Buffer>> {
  const root = fromPackageRoot('fixtures', 'templates', 'starter')
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/')
    let text = await readFile(join(root, path))
    if (/\.(json|mdx)$/.test(path)) {
      text = Buffer.from(
        text
          .toString('utf8')
          .replace(/\{\{name\}\}/g, 'Acme')
          .replace(/\{\{slug\}\}/g, 'acme')
          .replace(/\{\{schemaUrl\}\}/g, 'https://docs.example.com/docs.schema.json'),
      )
    }
    if (path === 'index.mdx')
      text = Buffer.concat([
        text,
        Buffer.from('\n\n![Diagram](/uploads/diagram.svg)\n\n[Feed](/uploads/feed.xml)\n'),
      ])
    files.set(path, text)
  }
  for (const [path, text] of Object.entries(uploads)) files.set(path, Buffer.from(text))
  return files
}

/** What an opened file did: its log lines, and the attribute its script would set. */
async function opened(page: Page, url: string, logs: string[]) {
  logs.length = 0
  const response = await page.goto(url)
  const ran = await page.evaluate(() => document.documentElement.getAttribute('data-ran')).catch(() => null)
  return { status: response?.status(), ran, logs: [...logs] }
}

test('site policies in Chromium: pages work, uploaded SVG and XML never run script', {
  skip: noChromium,
}, async (t) => {
  const port = await getPort({ host: '127.0.0.1' })
  const host = `localhost:${port}`
  const app = await testApp(t, 'sqlite', { baseDomain: host, apiHost: host })
  const token = await signIn(app)
  await createProject(app, token, 'acme')
  const deployed = await deploy(app, token, 'acme', await starterSite())
  assert.equal(deployed.finalized.statusCode, 200, deployed.finalized.body)
  await app.listen({ port, host: '127.0.0.1' })
  const origin = `http://acme.${host}`

  // The control: the same bytes from a plain server, with no policy.
  const plain = createServer((request, response) => {
    const path = (request.url ?? '/').slice(1) as keyof typeof uploads
    const body = uploads[path]
    if (!body) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': path.endsWith('.svg') ? 'image/svg+xml' : 'application/xml' })
    response.end(body)
  })
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  t.after(() => plain.close())
  const plainOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`

  const browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1'])
  t.after(() => browser.close())
  const page = await browser.newPage()
  const logs: string[] = []
  const violations: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    logs.push(message.text())
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`))

  await t.test('the control: without the policy, the files run their script', async () => {
    for (const [path, name] of [
      ['uploads/diagram.svg', 'svg'],
      ['uploads/feed.xml', 'xml'],
    ] as const) {
      const result = await opened(page, `${plainOrigin}/${path}`, logs)
      assert.equal(result.ran, name, path)
      assert.ok(result.logs.includes(`SCRIPT RAN ${name}`), path)
    }
  })

  await t.test('an uploaded SVG and XHTML-namespaced XML opened from the site run no script', async () => {
    for (const path of ['uploads/diagram.svg', 'uploads/feed.xml']) {
      const result = await opened(page, `${origin}/${path}`, logs)
      assert.equal(result.status, 200, `${path} is published`)
      assert.equal(result.ran, null, path)
      assert.deepEqual(
        result.logs.filter((line) => line.startsWith('SCRIPT RAN')),
        [],
        path,
      )
    }
    await page.goto(`${origin}/`)
    assert.deepEqual(
      await page.evaluate(() => [localStorage.getItem('ran-svg'), localStorage.getItem('ran-xml')]),
      [null, null],
      "nothing wrote to the site origin's storage",
    )
    violations.length = 0
  })

  await t.test('the starter pages work under the policy with no violation', async () => {
    await page.goto(`${origin}/`)
    // Set by the inline colour-mode script in <head>, allowed by its hash.
    assert.match((await page.getAttribute('html', 'data-theme')) ?? '', /^(light|dark)$/)
    assert.equal(await page.textContent('h1'), 'Introduction')
    const before = await page.getAttribute('html', 'data-theme')
    await page.click('[data-theme-toggle]')
    assert.notEqual(await page.getAttribute('html', 'data-theme'), before, 'the theme toggle works')

    await page.keyboard.press('Control+k')
    assert.ok(await page.isVisible('.d-search-dialog'))
    await page.fill('#d-search-input', 'quickstart')
    await page.waitForSelector('.d-search-results a')
    await Promise.all([page.waitForURL(/\/quickstart\/$/), page.keyboard.press('Enter')])
    assert.equal(await page.textContent('h1'), 'Quickstart')

    await page.goto(`${origin}/development/`)
    await page.goto(`${origin}/no/such/page/`)
    assert.match((await page.textContent('body')) ?? '', /not found/i)
    assert.deepEqual(violations, [])
  })
})
