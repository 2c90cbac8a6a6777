import assert from 'node:assert/strict'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function workspace(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'validate-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

test('a valid site prints one success line and exits 0', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  await cp(fromPackageRoot('fixtures', 'sites', 'full'), join(dir, 'docs'), { recursive: true })
  const run = runCli(['validate'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /^✔ docs\/docs\.json is valid: 8 pages checked in \d+ ms\n$/)
  assert.equal(run.stderr, '')
})

test('an invalid site prints every problem and exits 1', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  await cp(fromPackageRoot('fixtures', 'invalid', 'site-problems'), dir, { recursive: true })
  const run = runCli(['validate', '.'], dir)
  assert.equal(run.status, 1)
  const lines = run.stderr.split('\n')
  // Front matter wording is compiler/content's (pinned in its tests); here only its place matters.
  assert.match(lines[0] ?? '', /^error bad-yaml\.md:3:1 /)
  assert.match(lines[6] ?? '', /^error no-title\.mdx:1:1 .*title/)
  assert.deepEqual(lines.slice(1, 6).concat(lines.slice(7)), [
    'error docs.json:3:49 logo.dark: logo file "logo/dark.svg" not found under the docs root',
    'error docs.json:4:14 favicon: favicon file "favicon.ico" not found under the docs root',
    'error docs.json:10:50 navigation.tabs[0].groups[0].pages[1]: page "quickstrat" not found: expected quickstrat.mdx or quickstrat.md; did you mean "quickstart"?',
    'error docs.json:11:64 navigation.tabs[0].groups[1].pages[2]: page "../outside" is not a path inside the docs root',
    'error docs.json:14:7 navigation.tabs[1]: tab "Empty" has nothing to show; add "groups", "pages" or "href"',
    '✖ docs.json and its pages: 7 errors, 1 warning',
    '',
  ])
  // Listing a page twice is harmless: a warning, on stdout.
  assert.equal(
    run.stdout,
    'warning docs.json:10:64 navigation.tabs[0].groups[0].pages[2]: page "index" is listed twice in this tab (first at navigation.tabs[0].groups[0].pages[0]); remove one\n',
  )
})

test('page problems are errors with file:line:col and a fix, in text and --json', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(
    join(dir, 'docs.json'),
    '{ "name": "Pages", "navigation": { "pages": ["index", "other"] } }\n',
  )
  await writeFile(
    join(dir, 'index.mdx'),
    '---\ntitle: Home\n---\n\n<Callout type="tip">\nNever closed.\n\nSee [the guide](/guide/missing).\n',
  )
  await writeFile(
    join(dir, 'other.mdx'),
    '---\ntitle: Other\n---\nimport fs from \'node:fs\'\n\n<Fancy>hello</Fancy>\n\n<Card title="x" icon="not-an-icon-name">body</Card>\n',
  )
  const run = runCli(['validate', '.'], dir)
  assert.equal(run.status, 1)
  const places = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('error '))
    .map((line) => line.split(' ').slice(0, 2).join(' '))
  assert.deepEqual(places, [
    'error index.mdx:5:1',
    'error index.mdx:8:5',
    'error other.mdx:4:1',
    'error other.mdx:6:1',
    'error other.mdx:8:1',
  ])
  assert.match(run.stderr, /index\.mdx:5:1 Unclosed `<Callout>`: missing `<\/Callout>`/)
  assert.match(run.stderr, /no page guide\/missing/)
  assert.match(run.stderr, /import of "node:fs", expected a file inside the site/)
  assert.match(run.stderr, /Unknown component <Fancy>, expected a built-in component/)
  assert.match(run.stderr, /Unknown icon "not-an-icon-name", expected a Font Awesome free icon name/)
  const json = runCli(['validate', '--json', '.'], dir)
  assert.equal(json.status, 1)
  const report = JSON.parse(json.stdout) as { diagnostics: { rule: string; severity: string }[] }
  assert.deepEqual(
    report.diagnostics.map((diagnostic) => `${diagnostic.severity} ${diagnostic.rule}`),
    [
      'error unclosed-component',
      'error broken-link',
      'error import-not-allowed',
      'error unknown-component',
      'error unknown-icon',
    ],
  )
  // --config-only skips the pages: docs.json and front matter are fine.
  assert.equal(runCli(['validate', '--config-only', '.'], dir).status, 0)
})

test('--json prints the diagnostics for editors and CI', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  await cp(fromPackageRoot('fixtures', 'invalid', 'unknown-key-typo'), dir, { recursive: true })
  const run = runCli(['validate', '--json'], dir)
  assert.equal(run.status, 1)
  const report = JSON.parse(run.stdout) as { ok: boolean; diagnostics: unknown[] }
  assert.equal(report.ok, false)
  assert.deepEqual(report.diagnostics, [
    {
      severity: 'error',
      file: 'docs.json',
      line: 9,
      column: 7,
      path: 'navigation.tabs[1]',
      rule: 'empty-section',
      message: 'tab "More" has nothing to show; add "groups", "pages" or "href"',
    },
    {
      severity: 'error',
      file: 'docs.json',
      line: 11,
      column: 9,
      path: 'navigation.tabs[1]',
      rule: 'unknown-key',
      message: 'unknown key "grups"; did you mean "groups"?',
    },
  ])
  const valid = runCli(['validate', '--json', fromPackageRoot('fixtures', 'sites', 'minimal')], dir)
  assert.equal(valid.status, 0)
  assert.deepEqual(JSON.parse(valid.stdout).diagnostics, [])
})

test('warnings alone still pass; a missing directory or docs.json fails with a fix', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await cp(fromPackageRoot('fixtures', 'invalid', 'bom'), join(dir, 'apps', 'docs'), { recursive: true })
  const bom = runCli(['validate'], dir)
  assert.equal(bom.status, 0)
  assert.equal(
    bom.stdout.replace(/in \d+ ms/, 'in N ms'),
    'warning docs.json:1:1 file starts with a byte order mark; save it as UTF-8 without BOM\n' +
      '✔ apps/docs/docs.json is valid: 1 page checked in N ms (1 warning)\n',
  )
  const missing = runCli(['validate', 'nowhere'], dir)
  assert.equal(missing.status, 1)
  assert.equal(
    missing.stderr,
    'error docs directory "nowhere" not found; pass the folder that holds docs.json\n',
  )
  const bare = join(dir, 'bare')
  await mkdir(bare)
  await writeFile(join(bare, 'notes.md'), '# not a site')
  const noConfig = runCli(['validate'], bare)
  assert.equal(noConfig.status, 1)
  assert.match(
    noConfig.stderr,
    /^error docs\.json docs\.json not found in any of \., docs or apps\/docs; pass the folder that holds it, or create one with `docsctl new`\n/,
  )
  const named = runCli(['validate', '.'], bare)
  assert.match(named.stderr, /^error docs\.json docs\.json not found in \.; pass the folder/)
})

test('validate --help describes the command with examples', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  const run = runCli(['validate', '--help'], dir)
  assert.equal(run.status, 0)
  assert.match(run.stdout, /Check docs\.json and the pages it lists/)
  assert.match(run.stdout, /docsctl validate --json/)
})

test('an OpenAPI document on a host nobody allowed is not fetched; --allow-spec-host and the variable allow it', {
  skip: needs('a built binary'),
}, async (t) => {
  const { createServer } = await import('node:http')
  const { spawn } = await import('node:child_process')
  const { builtBinary } = await import('../../tier.js')
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    response
      .writeHead(200, { 'content-type': 'application/yaml' })
      .end(
        "openapi: 3.0.3\ninfo: { title: Remote, version: '1' }\npaths:\n  /runs:\n    get:\n      operationId: listRuns\n      responses: { '200': { description: The runs. } }\n",
      )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const host = `127.0.0.1:${(server.address() as { port: number }).port}`
  const url = `http://${host}/openapi.yaml`
  const dir = await workspace(t)
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Remote',
      navigation: {
        groups: [
          { group: 'Guide', pages: ['index'] },
          { group: 'API', openapi: url },
        ],
      },
    }),
  )
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\n---\nHello.\n')
  // Spawned, not spawnSync: this process's server must answer while docsctl runs.
  const validate = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [builtBinary('docsctl'), 'validate', ...args], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', DOCSCTL_ALLOW_SPEC_HOSTS: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
      })
      child.on('close', (status) => resolve({ status, stdout }))
    })

  const refused = await validate([])
  assert.equal(refused.status, 0, refused.stdout)
  assert.ok(
    refused.stdout.includes(
      `warning docs.json not fetching the OpenAPI document ${url}: ${host} is a private or loopback address (127.0.0.1); pass --allow-spec-host ${host} to fetch from it; its pages are left out`,
    ),
    refused.stdout,
  )
  assert.deepEqual(requests, [], 'docsctl did not connect')

  const allowed = await validate(['--allow-spec-host', host])
  assert.equal(allowed.status, 0, allowed.stdout)
  assert.doesNotMatch(allowed.stdout, /not fetching|openapi/i)
  assert.match(allowed.stdout, /2 pages checked/, 'the operation page is built')
  assert.deepEqual(requests, ['/openapi.yaml'])

  const byVariable = await validate([], { DOCSCTL_ALLOW_SPEC_HOSTS: host })
  assert.match(byVariable.stdout, /2 pages checked/)
  assert.equal(requests.length, 2)
})

test('docs.json errors do not hide the pages: one run reports both', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(
    join(dir, 'docs.json'),
    '{\n  "name": "Both",\n  "theme": "mint",\n  "navigation": { "pages": ["index"] }\n}\n',
  )
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\n<Fancy>hello</Fancy>\n')
  const run = runCli(['validate', '.'], dir)
  assert.equal(run.status, 1)
  const places = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('error '))
    .map((line) => line.split(' ').slice(0, 2).join(' '))
  assert.deepEqual(places, ['error docs.json:3:3', 'error index.mdx:5:1'])
})
