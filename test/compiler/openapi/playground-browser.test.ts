/**
 * In Chromium, an operation page generated from a spec shows its parameters and the example panel
 * beside them, and its "Try it" form sends the request from the browser straight to the spec's server
 * (a real HTTP server on loopback that allows CORS) and shows the answer, under the site's CSP.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { startDevServer } from '../../../cli/dev/server.js'
import { launchChromium, noChromium } from '../../chromium.js'

/** One Chromium for the file's tests, started by the first that needs it. */
let sharedBrowser: Promise<Browser> | undefined
const browserOnce = (): Promise<Browser> => {
  sharedBrowser ??= launchChromium()
  return sharedBrowser
}
after(async () => {
  if (sharedBrowser) await (await sharedBrowser).close()
})

test('an operation page shows parameters and examples, and Try it calls the API from the browser', {
  skip: noChromium,
}, async (t) => {
  const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = []
  const api = createServer((request, response) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end()
      return
    }
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers })
    response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{"id":7,"name":"Fern"}')
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  t.after(() => api.close())
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`

  const dir = mkdtempSync(join(tmpdir(), 'docs-playground-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Plants',
      api: { openapi: 'openapi.yaml' },
      navigation: { groups: [{ group: 'API', pages: ['GET /plants/{plantId}'] }] },
    }),
  )
  writeFileSync(
    join(dir, 'openapi.yaml'),
    `openapi: 3.1.0
info: { title: Plants, version: '1' }
servers: [{ url: '${apiUrl}' }]
security: [{ bearer: [] }]
paths:
  /plants/{plantId}:
    get:
      summary: Get a plant
      parameters:
        - { name: plantId, in: path, required: true, description: The plant's id., schema: { type: integer } }
        - { name: limit, in: query, description: At most this many., schema: { type: integer, maximum: 50 } }
      responses:
        '200':
          description: The plant.
          content:
            application/json:
              schema: { type: object, properties: { id: { type: integer }, name: { type: string } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
`,
  )
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await browserOnce()
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
  t.after(() => page.close())
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  await page.goto(new URL('/api-reference/get-a-plant/', server.url).toString())

  assert.equal(await page.locator('h1').textContent(), 'Get a plant')
  assert.match(
    (await page.locator('.d-api-endpoint-line').textContent()) ?? '',
    /GET\s*\/plants\/\{plantId\}/,
  )
  const parameter = page.locator('.d-param-field', { hasText: 'plantId' }).first()
  assert.ok(await parameter.isVisible(), 'the path parameter is listed')
  assert.match((await parameter.textContent()) ?? '', /The plant's id\./)
  const example = page.locator('.d-request-example')
  assert.ok(await example.isVisible(), 'the request example panel shows')
  const exampleBox = (await example.boundingBox())!
  const parameterBox = (await parameter.boundingBox())!
  assert.ok(exampleBox.x > parameterBox.x + 100, 'on a wide screen the examples sit beside the content')
  assert.match((await example.textContent()) ?? '', /curl --request GET/)

  await page.locator('.d-try-it summary').click()
  await page.getByLabel('Authorization (Bearer token)').fill('secret-token')
  await page.getByLabel('plantId (path, required)').fill('7')
  await page.getByLabel('limit (query)').fill('5')
  await page.getByRole('button', { name: 'Send' }).click()
  await page.locator('.d-try-it-response').waitFor({ state: 'visible' })
  assert.match((await page.locator('.d-try-it-status').textContent()) ?? '', /^200 OK/)
  assert.match((await page.locator('.d-try-it-response').textContent()) ?? '', /"name": "Fern"/)
  assert.equal(received.length, 1)
  assert.equal(received[0]!.url, '/plants/7?limit=5')
  assert.equal(received[0]!.headers.authorization, 'Bearer secret-token')
  assert.deepEqual(violations, [])
})

test('a spec without servers still has Try it: the reader enters the base URL', {
  skip: noChromium,
}, async (t) => {
  const received: string[] = []
  const api = createServer((request, response) => {
    received.push(request.url ?? '')
    response
      .writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' })
      .end('{"ok":true}')
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  t.after(() => api.close())
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
  const dir = mkdtempSync(join(tmpdir(), 'docs-playground-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Plants',
      api: { openapi: 'openapi.yaml' },
      navigation: { groups: [{ group: 'API', pages: ['GET /health'] }] },
    }),
  )
  writeFileSync(
    join(dir, 'openapi.yaml'),
    `openapi: 3.1.0
info: { title: Plants, version: '1' }
paths:
  /health:
    get:
      summary: Check health
      responses: { '200': { description: Healthy. } }
`,
  )
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await browserOnce()
  const page = await browser.newPage()
  t.after(() => page.close())
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  await page.goto(new URL('/api-reference/check-health/', server.url).toString())
  await page.locator('.d-try-it summary').click()
  await page.getByLabel('Base URL').fill(apiUrl)
  await page.getByRole('button', { name: 'Send' }).click()
  await page.locator('.d-try-it-response').waitFor({ state: 'visible' })
  assert.match((await page.locator('.d-try-it-status').textContent()) ?? '', /^200 OK/)
  assert.deepEqual(received, ['/health'])
  assert.deepEqual(violations, [])
})
