/**
 * A build with a thousand long diagnostics: the deployment record carries its first 50 and the counts,
 * a list carries only the counts, and `GET …/diagnostics` pages through all of them (at most 256 KB).
 * Before, every record carried them all: 1,001 diagnostics of 50,000 characters made 50 MB a record.
 */
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { ApiClient } from '../../../cli/api.js'
import { MAX_DIAGNOSTICS_BYTES, MAX_MESSAGE_CHARS } from '../../../compiler/diagnostics.js'
import { DIAGNOSTICS_SHOWN } from '../../../schemas/api/index.js'
import { bearer, createProject, deploy, signIn, testApp } from '../helper.js'

const encode = (value: string) => new TextEncoder().encode(value)

/** 12 pages, each with 110 refused attributes named by 300 characters: over the caps of a build. */
function floodedSite(): Map<string, Uint8Array> {
  const slugs = Array.from({ length: 12 }, (_, index) => `page-${index}`)
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Flood', navigation: { pages: ['index', ...slugs] } }))],
    ['index.mdx', encode('---\ntitle: Home\n---\n\nHome.\n')],
  ])
  for (const slug of slugs) {
    const attributes = Array.from({ length: 110 }, (_, index) => `${'a'.repeat(300)}${index}="x"`)
    files.set(`${slug}.mdx`, encode(`---\ntitle: ${slug}\n---\n\n<i ${attributes.join(' ')}>i</i>\n`))
  }
  return files
}

type Diagnostic = { severity: string; file: string; rule: string; message: string }

test('a deployment carries its first diagnostics and counts; the rest page by page', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'flood')
  const { id, finalized } = await deploy(app, token, 'flood', floodedSite())
  assert.equal(finalized.statusCode, 200, finalized.body.slice(0, 500))
  const fromFinalize = finalized.json() as { diagnostics: Diagnostic[]; diagnosticCount: number }
  assert.equal(fromFinalize.diagnostics.length, DIAGNOSTICS_SHOWN)

  const one = await app.inject({ url: `/projects/slug/flood/deployments/${id}`, headers: bearer(token) })
  assert.equal(one.statusCode, 200)
  const deployment = one.json() as { diagnostics: Diagnostic[]; diagnosticCount: number; errorCount: number }
  assert.equal(deployment.diagnostics.length, DIAGNOSTICS_SHOWN)
  assert.ok(deployment.diagnosticCount > 500, `${deployment.diagnosticCount} diagnostics`)
  assert.equal(deployment.errorCount, 0)
  assert.ok(one.body.length < 64 * 1024, `${one.body.length} bytes`)

  const list = await app.inject({ url: '/projects/slug/flood/deployments', headers: bearer(token) })
  const [listed] = list.json().deployments as Record<string, unknown>[]
  assert.equal(listed?.diagnostics, undefined)
  assert.equal(listed?.diagnosticCount, deployment.diagnosticCount)
  assert.ok(list.body.length < 4096, `${list.body.length} bytes`)

  const all: Diagnostic[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const query: string = cursor === null ? 'limit=200' : `limit=200&cursor=${cursor}`
    const page = await app.inject({
      url: `/projects/slug/flood/deployments/${id}/diagnostics?${query}`,
      headers: bearer(token),
    })
    assert.equal(page.statusCode, 200, page.body)
    const body = page.json() as { diagnostics: Diagnostic[]; total: number; nextCursor: string | null }
    assert.equal(body.total, deployment.diagnosticCount)
    all.push(...body.diagnostics)
    cursor = body.nextCursor
    pages++
  } while (cursor !== null)
  assert.equal(pages, Math.ceil(deployment.diagnosticCount / 200))
  assert.equal(all.length, deployment.diagnosticCount)
  assert.deepEqual(all.slice(0, DIAGNOSTICS_SHOWN), deployment.diagnostics)
  assert.ok(Buffer.byteLength(JSON.stringify(all)) <= MAX_DIAGNOSTICS_BYTES)
  assert.ok(all.every((diagnostic) => diagnostic.message.length <= MAX_MESSAGE_CHARS))
  const summary = all.find((diagnostic) => diagnostic.rule === 'diagnostics-limit' && diagnostic.file === '')
  assert.match(summary?.message ?? '', /^\d+ more diagnostic\(s\) beyond the first \d+/)

  // docsctl reads them all through the same pages.
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const client = new ApiClient({ apiUrl: `http://127.0.0.1:${port}/`, token: () => token })
  const read = await client.getDeployment('flood', id)
  assert.deepEqual(await client.allDiagnostics('flood', read), all)
})

test('a page of diagnostics checks its cursor and whose deployment it is', async (t) => {
  const app = await testApp(t, 'sqlite')
  const token = await signIn(app)
  await createProject(app, token, 'mine')
  const { id } = await deploy(app, token, 'mine', new Map([['docs.json', encode('{ "name": ')]]))
  const page = await app.inject({
    url: `/projects/slug/mine/deployments/${id}/diagnostics`,
    headers: bearer(token),
  })
  assert.equal(page.statusCode, 200)
  assert.equal(page.json().total, page.json().diagnostics.length)
  assert.equal(page.json().diagnostics[0].severity, 'error')
  const bad = await app.inject({
    url: `/projects/slug/mine/deployments/${id}/diagnostics?cursor=x`,
    headers: bearer(token),
  })
  assert.equal(bad.statusCode, 400)
  const other = await signIn(app, 'eve@example.com')
  const theirs = await app.inject({
    url: `/projects/slug/mine/deployments/${id}/diagnostics`,
    headers: bearer(other),
  })
  assert.equal(theirs.statusCode, 404)
})
