/**
 * `docsctl push` against a real docs-server: the cheap checks (session, server, slug, key) come before
 * the site is read and checked, an unchanged page is not checked twice (local cache, 0600), `--lenient`
 * and the phase times of CI logs and `--json`. A site with a page error proves no check ran: a check
 * would have printed it.
 */
import assert from 'node:assert/strict'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { cleanEnv, type DocsServer, freePort, runCli, startDocsServer } from '../helpers/docs-server.js'

let server: DocsServer
let work: string
let ownerToken: string

before(async () => {
  server = await startDocsServer()
  work = await mkdtemp(join(tmpdir(), 'docsctl-push-'))
  ownerToken = await server.tokenFor('owner@example.com')
})

after(async () => {
  await server?.stop()
  await rm(work, { recursive: true, force: true })
})

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ownerToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  assert.ok(response.ok, `${method} ${path}: ${response.status}`)
  return (await response.json()) as T
}

/** A project owned by owner@example.com and a deploy key for it. */
async function projectWithKey(slug: string): Promise<string> {
  const project = await api<{ id: string }>('POST', '/projects/', { name: slug, slug })
  return (await api<{ token: string }>('POST', `/projects/${project.id}/deploy-keys`, { name: 'ci' })).token
}

/** The minimal fixture with `slug`, plus a second page; `broken` adds a page error a check reports. */
async function site(slug: string, pages: Record<string, string> = {}): Promise<string> {
  const dir = join(work, slug)
  await cp(fromPackageRoot('fixtures', 'sites', 'minimal'), dir, { recursive: true })
  const config = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>
  const names = Object.keys(pages)
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({
      ...config,
      slug,
      navigation: { groups: [{ group: 'Start', pages: ['index', ...names] }] },
    }),
  )
  for (const [name, body] of Object.entries(pages))
    await writeFile(join(dir, `${name}.mdx`), `---\ntitle: ${name}\n---\n\n${body}\n`)
  return dir
}

const brokenPage = { broken: '<Calout>An unknown component.</Calout>' }

/** Run as CI does: not a terminal, CI set, credentials from the environment. */
const ci = (extra: NodeJS.ProcessEnv = {}) =>
  cleanEnv({
    CI: 'true',
    DOCSCTL_CONFIG_DIR: join(work, 'no-session'),
    DOCSCTL_API_URL: server.apiUrl,
    DOCSCTL_CACHE_DIR: join(work, 'cache'),
    ...extra,
  })

const checked = (stderr: string) => /Calout|^read\s|^validate\s/m.test(stderr)

test('without a session, push says to log in before it reads or checks the site', async () => {
  const dir = await site('no-session', brokenPage)
  const run = await runCli(['push', dir], { env: ci() })
  assert.equal(run.code, 1)
  assert.match(run.stderr, /You are not signed in\. Run `docsctl login/)
  assert.ok(!checked(run.stderr), `the site was checked first:\n${run.stderr}`)
})

test('a server that does not answer is named before the site is read or checked', async () => {
  const dir = await site('no-server', brokenPage)
  const run = await runCli(['push', dir], {
    env: ci({ DOCSCTL_API_URL: `http://127.0.0.1:${await freePort()}`, DOCSCTL_API_KEY: 'dk_x' }),
  })
  assert.equal(run.code, 1)
  assert.match(run.stderr, /Cannot reach the docs server at http:\/\/127\.0\.0\.1:\d+/)
  assert.ok(!checked(run.stderr), `the site was checked first:\n${run.stderr}`)
})

test('a wrong deploy key, or one for another project, fails before the site is read or checked', async () => {
  const key = await projectWithKey('key-owner')
  const other = await site('someone-elses', brokenPage)
  const wrongProject = await runCli(['push', other], { env: ci({ DOCSCTL_API_KEY: key }) })
  assert.equal(wrongProject.code, 1)
  assert.match(wrongProject.stderr, /This deploy key cannot deploy to "someone-elses"/)
  assert.ok(!checked(wrongProject.stderr), wrongProject.stderr)

  const own = await site('key-owner', brokenPage)
  const refused = await runCli(['push', own], { env: ci({ DOCSCTL_API_KEY: 'dk_wrong' }) })
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /The deploy key was refused/)
  assert.ok(!checked(refused.stderr), refused.stderr)

  const withKey = await runCli(['push', own], { env: ci({ DOCSCTL_API_KEY: key }) })
  assert.equal(withKey.code, 1, 'with the right key the site is checked, and its error found')
  assert.match(withKey.stderr, /Calout/)
})

/** A config folder holding a session of `email` (a token from the operator command). */
async function sessionOf(email: string): Promise<string> {
  const dir = join(work, `config-${email}`)
  await mkdir(dir, { recursive: true })
  const session = {
    apiUrl: server.apiUrl,
    accessToken: await server.tokenFor(email),
    refreshToken: null,
    expiresAt: null,
    tokenEndpoint: `${server.apiUrl}/oauth/token`,
    email,
  }
  await writeFile(join(dir, 'credentials.json'), JSON.stringify(session), { mode: 0o600 })
  return dir
}

test('a slug another account owns is refused before the site is read, checked or anything asked', async () => {
  await projectWithKey('owned-elsewhere')
  const dir = await site('owned-elsewhere', brokenPage)
  const run = await runCli(['push', dir], {
    env: ci({ DOCSCTL_CONFIG_DIR: await sessionOf('grace@example.com') }),
  })
  assert.equal(run.code, 1)
  assert.match(run.stderr, /The slug "owned-elsewhere" belongs to another account's project on http:\/\/127/)
  assert.match(run.stderr, /Choose another slug \(--project, DOCSCTL_PROJECT or "slug" in docs\.json\)/)
  assert.ok(!checked(run.stderr), run.stderr)

  const unknown = await runCli(['push', dir, '--project', 'nobody-has-this'], {
    env: ci({ DOCSCTL_CONFIG_DIR: await sessionOf('grace@example.com') }),
  })
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /No project "nobody-has-this" exists/)
  assert.ok(!checked(unknown.stderr), unknown.stderr)
})

test('a second push checks only the changed page, from a cache only the user can read; --json has every phase', async () => {
  const key = await projectWithKey('cached-checks')
  const dir = await site('cached-checks', { one: 'Page one.', two: 'Page two.' })
  const cacheDir = join(work, 'cache-of-checks')
  const env = ci({ DOCSCTL_API_KEY: key, DOCSCTL_CACHE_DIR: cacheDir })

  const first = await runCli(['push', dir], { env })
  assert.equal(first.code, 0, first.stderr)
  assert.match(first.stderr, /^read\s+\d+\.\d\d s {2}4 files$/m)
  assert.match(first.stderr, /^validate\s+\d+\.\d\d s {2}3 pages, 0 unchanged since the last check$/m)
  assert.match(first.stderr, /^upload\s+\d+\.\d\d s {2}4 of 4 files sent/m)
  assert.match(first.stderr, /^build\s+\d+\.\d\d s {2}ready/m)
  assert.match(first.stderr, /^live\s+\d+\.\d\d s {2}live$/m)
  const phaseOrder = [...first.stderr.matchAll(/^(read|validate|upload|build|live)\s/gm)].map((m) => m[1])
  assert.deepEqual(phaseOrder, ['read', 'validate', 'upload', 'build', 'live'])

  const checks = join(cacheDir, 'checks')
  assert.equal((await stat(checks)).mode & 0o777, 0o700)
  const cacheFiles = await readdir(checks)
  assert.equal(cacheFiles.length, 1, `one cache file: ${cacheFiles.join(', ')}`)
  const cacheFile = cacheFiles[0]!
  assert.equal((await stat(join(checks, cacheFile))).mode & 0o777, 0o600)

  await writeFile(join(dir, 'two.mdx'), '---\ntitle: two\n---\n\nPage two, edited.\n')
  const second = await runCli(['push', dir, '--json'], { env })
  assert.equal(second.code, 0, second.stderr)
  assert.match(second.stderr, /^validate\s+\d+\.\d\d s {2}3 pages, 2 unchanged since the last check$/m)
  const outcome = JSON.parse(second.stdout) as {
    ok: boolean
    status: string
    live: boolean
    uploadedFiles: number
    phases: Record<string, number>
  }
  assert.equal(outcome.ok, true)
  assert.equal(outcome.status, 'ready')
  assert.equal(outcome.live, true)
  assert.equal(outcome.uploadedFiles, 1)
  assert.deepEqual(Object.keys(outcome.phases), ['read', 'validate', 'upload', 'build', 'live'])
  for (const ms of Object.values(outcome.phases)) assert.ok(Number.isInteger(ms) && ms >= 0)
  assert.ok(outcome.phases.live! >= outcome.phases.build!, 'live counts the whole push')
})

test('--lenient pushes a site with a broken link that a strict push refuses', async () => {
  const key = await projectWithKey('lenient-links')
  const dir = await site('lenient-links', { linked: 'See [the setup](/no-such-page).' })
  const env = ci({ DOCSCTL_API_KEY: key })
  const strict = await runCli(['push', dir], { env })
  assert.equal(strict.code, 1)
  assert.match(strict.stderr, /error .*linked\.mdx.*no-such-page/)
  assert.match(
    strict.stderr,
    /With --lenient, unknown keys, broken links and unknown components are warnings/,
  )

  const lenient = await runCli(['push', dir, '--lenient'], { env })
  assert.equal(lenient.code, 0, lenient.stderr)
  assert.match(lenient.stderr, /warning .*linked\.mdx.*no-such-page/)
  assert.match(lenient.stdout, /Live at http:\/\/lenient-links\.localhost:\d+\//)
})

test('push --preview prints the change report against live and its URL; --json carries the whole report', async () => {
  const key = await projectWithKey('reported')
  const env = ci({ DOCSCTL_API_KEY: key })
  const dir = await site('reported', { setup: '## Install\n\nRun the installer.' })
  assert.equal((await runCli(['push', dir], { env })).code, 0)
  await writeFile(join(dir, 'setup.mdx'), '---\ntitle: setup\n---\n\n## Installation\n\nRun the installer.\n')

  const preview = await runCli(['push', dir, '--preview'], { env })
  assert.equal(preview.code, 0, preview.stderr)
  assert.match(preview.stdout, /### Changes against live/)
  assert.match(preview.stdout, /Pages: 1 changed, 0 added, 0 removed/)
  assert.match(preview.stdout, /^\+## Installation$/m)
  assert.match(
    preview.stdout,
    /^Change report: http\S+\/projects\/slug\/reported\/deployments\/dpl_\w+\/report$/m,
  )

  await writeFile(join(dir, 'setup.mdx'), '---\ntitle: setup\n---\n\n## Installing\n\nRun the installer.\n')
  const json = await runCli(['push', dir, '--preview', '--json'], { env })
  assert.equal(json.code, 0, json.stderr)
  const outcome = JSON.parse(json.stdout) as {
    report: {
      pages: { changed: { slug: string }[] }
      summary: string
      url: string
      screenshots: { taken: boolean }
    }
  }
  assert.deepEqual(
    outcome.report.pages.changed.map((page) => page.slug),
    ['setup'],
  )
  assert.match(outcome.report.summary, /Changes against live/)
  assert.equal(outcome.report.screenshots.taken, false)
})
