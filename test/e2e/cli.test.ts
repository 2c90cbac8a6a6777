/**
 * `docsctl` end to end: the real binary against a real `docs-server` process on a random port, with
 * a temp data folder and base domain `localhost:<port>`. Sign-in goes through the local provider's
 * page over HTTP while the CLI waits, as a browser would; interactive paths run in tmux.
 */
import assert from 'node:assert/strict'
import childProcess, { execFileSync } from 'node:child_process'
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import {
  type CliRun,
  cleanEnv,
  cliBin,
  type DocsServer,
  freePort,
  runCli,
  signInThroughBrowser,
  startDocsServer,
  startLogin,
} from '../cli/helpers/docs-server.js'

let server: DocsServer
let work: string
/** The signed-in user's config folder (credentials.json lives here). */
let configDir: string

before(async () => {
  server = await startDocsServer()
  work = await mkdtemp(join(tmpdir(), 'docsctl-e2e-'))
  configDir = join(work, 'config')
})

after(async () => {
  await server?.stop()
  await rm(work, { recursive: true, force: true })
})

const env = (extra: NodeJS.ProcessEnv = {}) =>
  cleanEnv({ DOCSCTL_CONFIG_DIR: configDir, DOCSCTL_API_URL: server.apiUrl, ...extra })

const noStackTrace = (run: CliRun) => {
  assert.doesNotMatch(run.stderr + run.stdout, /\n\s+at .+:\d+:\d+/, 'no stack trace')
  assert.doesNotMatch(run.stderr + run.stdout, /Internal Error/)
}

async function copySite(from: string, slug: string): Promise<string> {
  const dir = join(work, `site-${slug}`)
  await cp(from, dir, { recursive: true })
  const config = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>
  await writeFile(join(dir, 'docs.json'), JSON.stringify({ ...config, slug }, null, 2))
  return dir
}

async function sessionToken(): Promise<string> {
  return (JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')) as { accessToken: string })
    .accessToken
}

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`)
  return (await response.json()) as T
}

/** A deploy key for the project `slug`, made with the signed-in session. */
async function newDeployKey(slug: string, name: string): Promise<string> {
  const token = await sessionToken()
  const project = await api<{ id: string }>('GET', `/projects/slug/${slug}`, token)
  return (await api<{ token: string }>('POST', `/projects/${project.id}/deploy-keys`, token, { name })).token
}

async function login(email: string): Promise<CliRun> {
  const { authorizeUrl, done } = await startLogin(['--port', String(await freePort())], env())
  await signInThroughBrowser(authorizeUrl, email)
  return done
}

test('login through the sign-in page while the CLI waits, then whoami', async () => {
  const run = await login('ada@example.com')
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /Open this URL in your browser to sign in:/)
  assert.match(run.stdout, /Signed in as ada@example.com on http:\/\/127\.0\.0\.1:\d+\./)
  assert.equal((await stat(join(configDir, 'credentials.json'))).mode & 0o777, 0o600)
  const stored = JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')) as Record<
    string,
    string
  >
  assert.match(stored.accessToken!, /^dsa_/)
  assert.ok(stored.refreshToken, 'a refresh token is stored')

  const whoami = await runCli(['whoami'], { env: env() })
  assert.equal(whoami.code, 0, whoami.stderr)
  assert.equal(whoami.stdout, 'ada@example.com\n')
})

test('an expired access token is refreshed silently; an unrefreshable one asks to log in', async () => {
  const path = join(configDir, 'credentials.json')
  const stored = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>
  await writeFile(path, JSON.stringify({ ...stored, expiresAt: '2000-01-01T00:00:00.000Z' }), { mode: 0o600 })
  const refreshed = await runCli(['whoami'], { env: env() })
  assert.equal(refreshed.code, 0, refreshed.stderr)
  assert.equal(refreshed.stdout, 'ada@example.com\n')
  const after = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>
  assert.notEqual(after.accessToken, stored.accessToken)
  assert.notEqual(after.refreshToken, stored.refreshToken, 'refresh tokens rotate')

  const expiredDir = join(work, 'expired-config')
  await mkdir(expiredDir)
  await writeFile(
    join(expiredDir, 'credentials.json'),
    JSON.stringify({
      ...after,
      accessToken: 'dsa_gone',
      refreshToken: 'dsr_gone',
      expiresAt: '2000-01-01T00:00:00.000Z',
    }),
  )
  const whoami = await runCli(['whoami'], { env: env({ DOCSCTL_CONFIG_DIR: expiredDir }) })
  assert.equal(whoami.code, 0, 'a warning exits 0; only errors exit 1')
  assert.match(
    whoami.stderr,
    /Warning: Your session has expired\. Run `docsctl login --api-url http:\/\/127\.0\.0\.1:\d+` to sign in again\./,
  )
  noStackTrace(whoami)
  const site = await copySite(fromPackageRoot('fixtures', 'sites', 'minimal'), 'expired-session')
  const push = await runCli(['push', site], { env: env({ DOCSCTL_CONFIG_DIR: expiredDir }) })
  assert.equal(push.code, 1)
  assert.match(push.stderr, /Your session has expired/)
  noStackTrace(push)
})

test('a push to an unknown slug in a non-interactive session fails and says what to do', async () => {
  const site = await copySite(fromPackageRoot('fixtures', 'sites', 'minimal'), 'nobody-made-this')
  const run = await runCli(['push', site], { env: env() })
  assert.equal(run.code, 1)
  assert.match(
    run.stderr,
    /No project "nobody-made-this" exists on http:\/\/127\.0\.0\.1:\d+ for your account/,
  )
  assert.match(run.stderr, /docsctl push` once in a terminal/)
  noStackTrace(run)
})

test('push a fixture site with a big asset, then a one-page edit uploads one file', async () => {
  const token = await sessionToken()
  await api('POST', '/projects/', token, { name: 'Fixture', slug: 'e2e-fixture' })
  const site = await copySite(fromPackageRoot('fixtures', 'sites', 'minimal'), 'e2e-fixture')
  // Bigger than one 4 MB batch: it goes up through the chunk endpoint.
  await mkdir(join(site, 'assets'))
  await writeFile(join(site, 'assets', 'demo.mp4'), Buffer.alloc(5_500_000, 7))
  // A site publishes the files its pages use: the home page shows the video.
  const homePage = join(site, 'index.mdx')
  await writeFile(
    homePage,
    `${await readFile(homePage, 'utf8')}\n\n<video src="/assets/demo.mp4" controls />\n`,
  )
  const first = await runCli(['push', site, '--message', 'First deploy'], { env: env() })
  assert.equal(first.code, 0, first.stderr)
  assert.match(first.stdout, new RegExp(`Live at http://e2e-fixture\\.localhost:${server.port}/`))
  assert.match(first.stdout, /uploaded 3 of 3 files/)
  const home = await server.fetchSite('e2e-fixture', '/')
  assert.equal(home.status, 200)
  const asset = await server.fetchSite('e2e-fixture', '/assets/demo.mp4')
  assert.equal(asset.status, 200)
  assert.equal((await asset.arrayBuffer()).byteLength, 5_500_000)

  const page = join(site, 'index.mdx')
  await writeFile(page, `${await readFile(page, 'utf8')}\n\nA sentence added by the second push.\n`)
  const second = await runCli(['push', site], { env: env() })
  assert.equal(second.code, 0, second.stderr)
  assert.match(second.stdout, /uploaded 1 of 3 files/)
  assert.match(
    await (await server.fetchSite('e2e-fixture', '/')).text(),
    /A sentence added by the second push/,
  )
})

test('push a corpus site: strict validation first, then live once the author fixes docs.json', async () => {
  const token = await sessionToken()
  await api('POST', '/projects/', token, { name: 'x402', slug: 'x402-docs' })
  const site = await copySite('/work/shared/corpus/x402', 'x402-docs')
  const refused = await runCli(['push', site], { env: env() })
  assert.equal(refused.code, 1)
  // One run names every problem: docs.json's and the pages'.
  assert.match(refused.stderr, /docs\.json:3:\d+ "theme" is not supported here/)
  assert.match(
    refused.stderr,
    /warning docs\.json:100:\d+ feedback: "suggestEdit" is a setting of the hosted platform/,
  )
  assert.match(
    refused.stderr,
    /core-concepts\/facilitator\.md:70:3 Unexpected link to "\/docs\/core-concepts\/client-server\.md"/,
  )
  // The format's own `anchor` label of a global anchor is accepted.
  assert.doesNotMatch(refused.stderr, /anchor/)
  assert.match(refused.stderr, /has problems; fix the ones above/)
  noStackTrace(refused)

  // What the messages ask for: drop theme and colors, and mend the links that lead nowhere here.
  const config = JSON.parse(await readFile(join(site, 'docs.json'), 'utf8')) as Record<string, unknown>
  delete config.theme
  delete config.colors
  await writeFile(join(site, 'docs.json'), JSON.stringify(config, null, 2))
  for (const page of ['core-concepts/client-server.md', 'core-concepts/facilitator.md']) {
    const text = await readFile(join(site, page), 'utf8')
    await writeFile(join(site, page), text.replaceAll('](/docs/core-concepts/', '](/core-concepts/'))
  }
  const pushed = await runCli(['push', site], { env: env() })
  assert.equal(pushed.code, 0, pushed.stderr)
  assert.match(pushed.stdout, /Live at http:\/\/x402-docs\.localhost:\d+\//)
  const quickstart = await server.fetchSite('x402-docs', '/getting-started/quickstart-for-buyers/')
  assert.equal(quickstart.status, 200)
})

test('a push interrupted during upload leaves the live site as it was', async (t) => {
  const site = join(work, 'site-e2e-fixture')
  const token = await sessionToken()
  const deployKey = await newDeployKey('e2e-fixture', 'interrupted')
  const before = await (await server.fetchSite('e2e-fixture', '/')).text()
  await writeFile(join(site, 'index.mdx'), '---\ntitle: Interrupted\n---\n\nThis text must never go live.\n')
  await writeFile(join(site, 'assets', 'second.mp4'), Buffer.alloc(6_000_000, 9))
  // A proxy that passes everything to the server but holds the big file's chunk upload, so the
  // push is surely mid-upload when it is killed.
  let held: (() => void) | undefined
  const stalled = new Promise<void>((resolve) => {
    held = resolve
  })
  const proxy: Server = createServer((request, response) => {
    if (request.method === 'PUT' && request.url?.includes('/files/chunks/')) {
      held?.()
      return
    }
    const upstream = httpRequest(
      `${server.apiUrl}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  t.after(() => {
    proxy.closeAllConnections()
    return new Promise<void>((resolve) => proxy.close(() => resolve()))
  })
  const address = proxy.address()
  assert.ok(typeof address === 'object' && address)
  const child = childProcess.spawn(process.execPath, [cliBin, 'push', site], {
    env: env({ DOCSCTL_API_URL: `http://127.0.0.1:${address.port}`, DOCSCTL_API_KEY: deployKey }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<string>((resolve) => child.once('exit', () => resolve('exited')))
  const first = await Promise.race([stalled.then(() => 'stalled'), exited])
  assert.equal(first, 'stalled', `the push ended before uploading the big file:\n${output}`)
  child.kill('SIGINT')
  await exited

  assert.equal(await (await server.fetchSite('e2e-fixture', '/')).text(), before)
  const { deployments } = await api<{ deployments: { status: string; live: boolean }[] }>(
    'GET',
    '/projects/slug/e2e-fixture/deployments',
    token,
  )
  assert.equal(deployments[0]?.status, 'uploading')
  assert.equal(deployments[0]?.live, false)
  assert.equal(deployments.filter((deployment) => deployment.live).length, 1)
})

test('push with a deploy key from the environment, as CI would', async () => {
  const token = await sessionToken()
  const deployKey = await newDeployKey('e2e-fixture', 'CI')
  const site = join(work, 'site-e2e-fixture')
  const ciEnv = env({
    DOCSCTL_CONFIG_DIR: join(work, 'ci-has-no-session'),
    DOCSCTL_API_KEY: deployKey,
    DOCSCTL_PROJECT: 'e2e-fixture',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_REF: 'refs/heads/release-1',
    GITHUB_EVENT_NAME: 'push',
    DOCSCTL_COMMIT_MESSAGE: 'Deploy from CI',
  })
  const run = await runCli(['push', site], { env: ciEnv })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /uploaded [12] of 4 files/)
  assert.ok(!run.stderr.includes('\u001b['), 'no progress bar or colour in CI logs')
  const { deployments } = await api<{
    deployments: { branch: string; commitMessage: string | null; live: boolean }[]
  }>('GET', '/projects/slug/e2e-fixture/deployments', token)
  assert.equal(deployments[0]?.branch, 'release-1')
  assert.equal(deployments[0]?.commitMessage, 'Deploy from CI')
  assert.equal(deployments[0]?.live, true)

  const wrongKey = await runCli(['push', site], {
    env: { ...ciEnv, DOCSCTL_API_KEY: 'dk_wrongwrongwrongwrongwrongwrongwrongwrongwro' },
  })
  assert.equal(wrongKey.code, 1)
  assert.match(wrongKey.stderr, /The deploy key was refused/)
  noStackTrace(wrongKey)
  const otherProject = await runCli(['push', site, '--project', 'x402-docs'], { env: ciEnv })
  assert.equal(otherProject.code, 1)
  assert.match(otherProject.stderr, /This deploy key cannot deploy to "x402-docs"/)
  noStackTrace(otherProject)
})

test('analytics set, get and unset, with the client checks', async () => {
  const key = 'phc_e2eE2eE2eE2eE2eE2eE2eE2eE2e'
  const flags = ['--project', 'e2e-fixture']
  const personal = await runCli(['analytics', 'set', 'posthog', 'phx_0123456789abcdefghijklmnop', ...flags], {
    env: env(),
  })
  assert.equal(personal.code, 1)
  assert.match(personal.stderr, /personal API key \(phx_…\)/)
  const short = await runCli(['analytics', 'set', 'posthog', 'phc_short', ...flags], { env: env() })
  assert.match(short.stderr, /at least 24/)
  const http = await runCli(
    ['analytics', 'set', 'posthog', key, '--host', 'http://eu.i.posthog.com', ...flags],
    { env: env() },
  )
  assert.match(http.stderr, /must be an https:\/\/ URL/)

  const set = await runCli(['analytics', 'set', 'posthog', key, ...flags], { env: env() })
  assert.equal(set.code, 0, set.stderr)
  const json = await runCli(['analytics', 'get', '--json', ...flags], { env: env() })
  assert.deepEqual(JSON.parse(json.stdout), { posthog: { key, host: 'https://us.i.posthog.com' } })
  const text = await runCli(['analytics', 'get', ...flags], { env: env() })
  assert.match(text.stdout, /posthog\n\s+key:\s+phc_e2e/)
  // The next deployment's pages load the script with the key.
  const push = await runCli(['push', join(work, 'site-e2e-fixture'), ...flags], { env: env() })
  assert.equal(push.code, 0, push.stderr)
  assert.match(await (await server.fetchSite('e2e-fixture', '/')).text(), new RegExp(key))

  const unset = await runCli(['analytics', 'unset', 'posthog', ...flags], { env: env() })
  assert.equal(unset.code, 0, unset.stderr)
  const none = await runCli(['analytics', 'get', ...flags], { env: env() })
  assert.match(none.stdout, /No analytics for e2e-fixture/)
  const withoutAnalytics = await runCli(['push', join(work, 'site-e2e-fixture'), ...flags], { env: env() })
  assert.equal(withoutAnalytics.code, 0, withoutAnalytics.stderr)
  assert.doesNotMatch(await (await server.fetchSite('e2e-fixture', '/')).text(), /phc_e2e|posthog/i)
})

test('bad input ends with a clear message and a non-zero exit, never a stack trace', async (t) => {
  const base = await copySite(fromPackageRoot('fixtures', 'sites', 'minimal'), 'e2e-fixture-bad')
  const check = (run: CliRun, message: RegExp) => {
    assert.equal(run.code, 1, run.stdout)
    assert.match(run.stderr, message)
    noStackTrace(run)
  }

  check(await runCli(['push', join(work, 'no-such-dir')], { env: env() }), /does not exist|docs\.json/)

  const outside = join(work, 'outside-secret.txt')
  await writeFile(outside, 'secret')
  const withLink = join(work, 'site-with-link')
  await cp(base, withLink, { recursive: true })
  await symlink(outside, join(withLink, 'leak.txt'))
  // The project is checked before the site is read: push to one that exists to reach the read.
  check(await runCli(['push', withLink, '--project', 'e2e-fixture'], { env: env() }), /leak\.txt/)

  const big = join(work, 'site-with-big-file')
  await cp(base, big, { recursive: true })
  await writeFile(join(big, 'huge.bin'), Buffer.alloc(26 * 1024 * 1024, 1))
  check(await runCli(['push', big, '--project', 'e2e-fixture'], { env: env() }), /huge\.bin/)

  // A real unreadable directory needs a user that permissions apply to; root reads everything.
  const locked = join(work, 'site-locked')
  await cp(base, locked, { recursive: true })
  await chmod(locked, 0o000)
  t.after(() => chmod(locked, 0o755))
  if (process.getuid?.() === 0) {
    await chmod(work, 0o755)
    const asNobody = await new Promise<CliRun>((resolve) => {
      const { spawn } = childProcess
      const child = spawn(process.execPath, [cliBin, 'push', locked], {
        env: env({ DOCSCTL_CONFIG_DIR: '/tmp' }),
        uid: 65534,
        gid: 65534,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
    })
    check(asNobody, /permission denied|EACCES/)
  } else check(await runCli(['push', locked], { env: env() }), /permission denied|EACCES/)

  check(
    await runCli(['push', base, '--api-url', `http://127.0.0.1:${await freePort()}`, '--api-key', 'dk_x'], {
      env: env(),
    }),
    /Cannot reach the docs server/,
  )
})

test('a server that answers 500 or 429 gets a clear message after the retries', async (t) => {
  const base = join(work, 'site-e2e-fixture')
  for (const [status, message] of [
    [500, /The server failed \(500\)/],
    [429, /rate limiting/],
  ] as const) {
    let requests = 0
    const broken: Server = createServer((_request, response) => {
      requests++
      response
        .writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ error: `status ${status}` }))
    })
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))
    t.after(() => new Promise<void>((resolve) => broken.close(() => resolve())))
    const address = broken.address()
    assert.ok(typeof address === 'object' && address)
    const run = await runCli(
      ['push', base, '--api-url', `http://127.0.0.1:${address.port}`, '--api-key', 'dk_x'],
      { env: env() },
    )
    assert.equal(run.code, 1)
    assert.match(run.stderr, message)
    noStackTrace(run)
    assert.equal(requests, status === 429 ? 4 : 1, '429 is retried, 500 is not')
  }
})

test('logout, then push is told to log in', async () => {
  const logout = await runCli(['logout'], { env: env() })
  assert.equal(logout.code, 0)
  assert.match(logout.stdout, /Signed out/)
  const again = await runCli(['logout'], { env: env() })
  assert.match(again.stdout, /You were not signed in/)
  const push = await runCli(['push', join(work, 'site-e2e-fixture')], { env: env() })
  assert.equal(push.code, 1)
  assert.match(
    push.stderr,
    /You are not signed in\. Run `docsctl login --api-url http:\/\/127\.0\.0\.1:\d+` first\./,
  )
  noStackTrace(push)
})

// Interactive paths, in a real terminal.
const tmuxSocket = `docsctl-e2e-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', tmuxSocket, ...args], { encoding: 'utf8' })
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`

async function waitForPane(session: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const pane = tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-200')
    if (pattern.test(pane)) return pane
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in:\n${pane}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function startInTmux(session: string, args: string[], extraEnv: NodeJS.ProcessEnv): void {
  const vars = Object.entries(env(extraEnv)).map(([name, value]) => `${name}=${shellQuote(value ?? '')}`)
  const command = `env -i ${vars.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(cliBin)} ${args.map(shellQuote).join(' ')}; echo "EXIT:$?"; sleep 600`
  tmux('new-session', '-d', '-s', session, '-x', '250', '-y', '50', command)
}

test('in a terminal: login --no-open, then the first push offers to create the project', async (t) => {
  t.after(() => {
    try {
      tmux('kill-server')
    } catch {
      // Already gone.
    }
  })
  startInTmux('login', ['login', '--no-open', '--port', String(await freePort())], {})
  const pane = await waitForPane('login', /Waiting for the sign-in/)
  const url = /(http:\/\/\S+\/oauth\/authorize\S+)/.exec(pane)?.[1]
  assert.ok(url, pane)
  await signInThroughBrowser(url, 'grace@example.com')
  assert.match(await waitForPane('login', /EXIT:\d+/), /Signed in as grace@example\.com[\s\S]*EXIT:0/)

  const site = await copySite(fromPackageRoot('fixtures', 'sites', 'minimal'), 'grace-docs')
  startInTmux('push', ['push', site], {})
  await waitForPane('push', /No project "grace-docs" exists .* Create it now\?/)
  tmux('send-keys', '-t', 'push', 'Enter')
  await waitForPane('push', /Display name of the project/)
  tmux('send-keys', '-t', 'push', 'Enter')
  const done = await waitForPane('push', /EXIT:\d+/, 60_000)
  assert.match(done, /Created project grace-docs/)
  assert.match(done, /dk_[A-Za-z0-9_-]{20,}/)
  assert.match(done, /Live at http:\/\/grace-docs\.localhost:\d+\//)
  assert.match(done, /EXIT:0/)
})
