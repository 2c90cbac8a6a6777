/**
 * A spec that docs.json names by URL is fetched by the CLI (from a real HTTP server on loopback here)
 * into the site's files, so the build — on this machine or on the server, which never fetches —
 * generates its pages; a URL that cannot be fetched is a warning line, and the build says what to do.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { fetchRemoteSpecs } from '../../cli/remote-specs.js'
import { buildSite } from '../../compiler/build.js'
import { fetchedSpecPath } from '../../compiler/openapi/index.js'

const spec = `openapi: 3.0.3
info: { title: Remote, version: '1' }
paths:
  /runs/{id}:
    get:
      operationId: getRun
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: The run. } }
`

test('spec URLs in docs.json are fetched into the upload and become pages', async (t) => {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    if (request.url === '/openapi.yaml')
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(spec)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const good = `${origin}/openapi.yaml`
  const missing = `${origin}/gone.yaml`
  const files = new Map<string, Uint8Array>([
    [
      'docs.json',
      new TextEncoder().encode(
        JSON.stringify({
          name: 'Remote',
          api: { openapi: good },
          navigation: {
            groups: [
              { group: 'Runs', openapi: { source: good, directory: 'runs' } },
              { group: 'Gone', openapi: missing },
            ],
          },
        }),
      ),
    ],
  ])
  const problems = await fetchRemoteSpecs(files)
  assert.deepEqual(problems, [
    `docs.json: cannot fetch the OpenAPI document ${missing} (HTTP 404); its pages are left out`,
  ])
  assert.deepEqual(requests.sort(), ['/gone.yaml', '/openapi.yaml'], 'each URL fetched once')
  assert.equal(new TextDecoder().decode(files.get(fetchedSpecPath(good))), spec)

  const result = await buildSite(files, { mode: 'lenient' })
  assert.ok(
    result.files.has('runs/get-run/index.html'),
    'the operation page is generated under the directory',
  )
  assert.deepEqual(
    result.diagnostics.map((diagnostic) => diagnostic.rule),
    ['openapi-not-fetched'],
    'the unfetched spec is reported once',
  )
})
