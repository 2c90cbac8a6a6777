import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { needs } from '../../tier.js'
import { runCli, runCliAsync } from './cli-run.js'

async function workspace(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-check-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const spec = (schemaRef: string) =>
  [
    'openapi: 3.1.0',
    'info:',
    '  title: Plants',
    "  version: '1'",
    'paths:',
    '  /plants:',
    '    get:',
    '      responses:',
    "        '200':",
    '          description: The plants.',
    '          content:',
    '            application/json:',
    '              schema:',
    `                $ref: '${schemaRef}'`,
    '',
  ].join('\n')

test('openapi-check loads a document and the files its $refs name beside it', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await mkdir(join(dir, 'api'))
  await mkdir(join(dir, 'shared'))
  await writeFile(join(dir, 'api', 'openapi.yaml'), spec('../shared/schemas.yaml#/Plant'))
  await writeFile(join(dir, 'shared', 'schemas.yaml'), 'Plant:\n  type: object\n')
  const run = runCli(['openapi-check', 'api/openapi.yaml'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout, '✔ api/openapi.yaml: OpenAPI 3.1.0, 1 operation\n')
})

test('openapi-check prints each problem with file:line:col and exits 1', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(join(dir, 'openapi.yaml'), spec('#/components/schemas/Plant'))
  await writeFile(join(dir, 'broken.yaml'), 'openapi: 3.1.0\npaths:\n  /a: [\n')

  const unresolved = runCli(['openapi-check', 'openapi.yaml'], dir)
  assert.equal(unresolved.status, 1)
  assert.match(
    unresolved.stderr,
    /^error openapi\.yaml:13:15 paths\["\/plants"\]\.get\.responses\[200\]\.content\["application\/json"\]\.schema: Unresolved \$ref: Missing \$ref pointer "#\/components\/schemas\/Plant"/m,
  )
  assert.match(unresolved.stderr, /^✖ openapi\.yaml: 1 error$/m)

  const broken = runCli(['openapi-check', 'broken.yaml', '--json'], dir)
  assert.equal(broken.status, 1)
  const result = JSON.parse(broken.stdout) as { ok: boolean; diagnostics: { file: string; line: number }[] }
  assert.equal(result.ok, false)
  assert.deepEqual(
    result.diagnostics.map(({ file, line }) => ({ file, line })),
    [{ file: 'broken.yaml', line: 4 }],
  )

  const missing = runCli(['openapi-check', 'nope.yaml'], dir)
  assert.equal(missing.status, 1)
  assert.equal(
    missing.stderr,
    'error OpenAPI document "nope.yaml" not found; pass a file path or an http(s) URL\n',
  )
})

test('openapi-check fetches the URL it is given, and a redirect only to an allowed host', {
  skip: needs('a built binary'),
}, async (t) => {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    if (request.url === '/moved.yaml')
      response.writeHead(302, { location: `http://localhost:${port}/openapi.yaml` }).end()
    else response.writeHead(200, { 'content-type': 'application/yaml' }).end(spec('#/components/x'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const port = (server.address() as { port: number }).port
  const dir = await workspace(t)
  const env = { DOCSCTL_ALLOW_SPEC_HOSTS: '' }

  const fetched = await runCliAsync(['openapi-check', `http://127.0.0.1:${port}/openapi.yaml`], dir, env)
  assert.equal(fetched.status, 1)
  assert.match(fetched.stderr, new RegExp(`^error http://127\\.0\\.0\\.1:${port}/openapi\\.yaml:13:15 `, 'm'))

  const redirected = await runCliAsync(['openapi-check', `http://127.0.0.1:${port}/moved.yaml`], dir, env)
  assert.equal(redirected.status, 1)
  assert.match(redirected.stderr, /^error cannot fetch http:\/\/127\.0\.0\.1:\d+\/moved\.yaml: .*localhost/m)
  assert.deepEqual(requests, ['/openapi.yaml', '/moved.yaml'], 'the redirect was not followed')
})
