/**
 * README.md's "From nothing to a live site", run verbatim from a fresh clone: the commands of its two
 * walkthrough blocks are read from the README itself. The server block runs as child processes (with
 * PORT set, so a free port is used and the URLs follow it); the CLI block is typed into a bash in a
 * real terminal (tmux), where this test answers push's questions and signs in as the browser would.
 * `npm test` inside the clone runs only with WALKTHROUGH_NPM_TEST=1 (the whole suite takes longer than
 * a test should); `npm run lint` there always runs, to show the site beside the checkout cannot break it.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { fromPackageRoot } from '../../compiler/assets.js'
import { freePort, signInThroughBrowser } from '../cli/helpers/docs-server.js'

const run = promisify(execFile)
const hasTools = ['git', 'tmux'].every((tool) => spawnSync(tool, ['-V']).error === undefined)

/** The commands of the ```sh block after `<!-- walkthrough:<name>`, without their comments. */
function walkthroughCommands(readme: string, name: string): string[] {
  const marker = readme.indexOf(`<!-- walkthrough:${name}`)
  assert.notEqual(marker, -1, `README.md has no walkthrough:${name} block`)
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker))
  assert.ok(block, `no sh block after walkthrough:${name}`)
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '')
}

const socket = `docsctl-walkthrough-${process.pid}`
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' })

test('the README walkthrough works verbatim from a fresh clone', {
  skip: !hasTools && 'needs git and tmux',
  timeout: 15 * 60_000,
}, async (t) => {
  const readme = await readFile(fromPackageRoot('README.md'), 'utf8')
  const serverCommands = walkthroughCommands(readme, 'server')
  const cliCommands = walkthroughCommands(readme, 'cli')
  assert.deepEqual(serverCommands, ['npm ci', 'npm start'])
  assert.ok(cliCommands.includes('docsctl push'), cliCommands.join('\n'))

  const root = await mkdtemp(join(tmpdir(), 'docs-walkthrough-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  const clone = join(root, 'docsctl')
  await run('git', ['clone', '--quiet', fromPackageRoot(), clone])
  const home = join(root, 'home')
  const prefix = join(root, 'npm-global')
  await mkdir(home)
  const port = await freePort()
  const apiUrl = `http://localhost:${port}`
  // What a person's shell has: their PATH (with npm's global bin), a home, and the server's address.
  const shellEnv: NodeJS.ProcessEnv = {
    PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    TERM: 'xterm-256color',
    npm_config_prefix: prefix,
    // The machine's own npm settings (a registry mirror, headers for native builds), as the user has them.
    npm_config_userconfig: join(process.env.HOME ?? home, '.npmrc'),
    npm_config_cache: join(process.env.HOME ?? home, '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    PORT: String(port),
    DOCSCTL_API_URL: apiUrl,
    // And the machine's certificate authorities and proxy, which a registry mirror may need.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) =>
        /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|(https?|no)_proxy)$/i.test(name),
      ),
    ),
  }

  // Terminal one: the server block.
  let server: ChildProcess | undefined
  let serverLog = ''
  t.after(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve))
      // npm does not pass SIGTERM on to the server it started: stop the whole group, as Ctrl-C would.
      process.kill(-server.pid, 'SIGTERM')
      await exited
    }
  })
  for (const command of serverCommands) {
    const [file, ...args] = command.split(' ')
    if (command === 'npm start') {
      // npm start runs until stopped; run it as its own process group so stopping it stops the server.
      server = spawn(file!, args, {
        cwd: clone,
        env: shellEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
      server.stdout!.on('data', (chunk: Buffer) => {
        serverLog += chunk.toString()
      })
      server.stderr!.on('data', (chunk: Buffer) => {
        serverLog += chunk.toString()
      })
      for (let attempt = 0; ; attempt++) {
        if (server.exitCode !== null) assert.fail(`npm start exited:\n${serverLog}`)
        if (
          await fetch(`${apiUrl}/health`).then(
            (response) => response.ok,
            () => false,
          )
        )
          break
        if (attempt > 600) assert.fail(`the server never answered:\n${serverLog}`)
        await sleep(100)
      }
    } else {
      await run(file!, args, { cwd: clone, env: shellEnv, timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 })
    }
  }
  assert.match(serverLog, new RegExp(`"sites":"http://<slug>\\.localhost:${port}/"`), 'URLs follow the port')

  // Terminal two: the CLI block, typed into bash. The "browser" is a script that records the URL.
  const opened = join(root, 'browser-url')
  const browser = join(root, 'browser.sh')
  await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > ${opened}\n`, { mode: 0o755 })
  const envArgs = Object.entries({ ...shellEnv, BROWSER: browser }).map(([key, value]) => `${key}=${value}`)
  const started = tmux(
    'new-session',
    '-d',
    '-s',
    'cli',
    '-x',
    '200',
    '-y',
    '50',
    '-c',
    clone,
    'env',
    '-i',
    ...envArgs,
    'bash',
    '--norc',
    '--noprofile',
  )
  assert.equal(started.status, 0, started.stderr)
  t.after(() => tmux('kill-server'))
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'cli').stdout
  const waitFor = async (pattern: RegExp, seconds: number): Promise<RegExpExecArray> => {
    const deadline = Date.now() + seconds * 1000
    for (;;) {
      const match = pattern.exec(screen())
      if (match) return match
      if (Date.now() > deadline) assert.fail(`${pattern} never appeared; the terminal shows:\n${screen()}`)
      await sleep(100)
    }
  }

  for (const [index, command] of cliCommands.entries()) {
    tmux('send-keys', '-t', 'cli', '-l', `${command}; echo "STEP-${index}=$?"`)
    tmux('send-keys', '-t', 'cli', 'Enter')
    if (command === 'docsctl login') {
      let url = ''
      for (let attempt = 0; attempt < 300 && !url; attempt++) {
        url = await readFile(opened, 'utf8').catch(() => '')
        if (!url) await sleep(100)
      }
      assert.ok(url, `login opened no browser:\n${screen()}`)
      await signInThroughBrowser(url, 'newcomer@example.com')
    }
    if (command === 'docsctl push') {
      await waitFor(/Create it now\?/, 60)
      tmux('send-keys', '-t', 'cli', 'Enter')
      await waitFor(/Display name of the project/, 30)
      tmux('send-keys', '-t', 'cli', 'Enter')
    }
    const [, code] = await waitFor(new RegExp(`^STEP-${index}=(\\d+)$`, 'm'), 600)
    assert.equal(code, '0', `"${command}" failed; the terminal shows:\n${screen()}`)
  }

  const terminal = screen()
  assert.match(terminal, new RegExp(`Live at http://my-docs\\.localhost:${port}/`))
  assert.match(terminal, /DOCSCTL_API_URL=http:\/\/localhost:\d+ DOCSCTL_API_KEY=<the key> docsctl push/)
  assert.doesNotMatch(terminal, /npx docsctl/)
  const site = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    import('node:http').then(({ request }) => {
      const req = request(`${apiUrl}/`, { headers: { host: `my-docs.localhost:${port}` } }, (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString()
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    }, reject)
  })
  assert.equal(site.status, 200)
  assert.match(site.body, /My Docs/)

  // The site was made beside the checkout: the push recorded no branch or commit of the checkout.
  const docsctl = join(prefix, 'bin', 'docsctl')
  const listed = await run(docsctl, ['deployments', 'list', '--json', '--project', 'my-docs'], {
    cwd: join(root, 'my-docs'),
    env: shellEnv,
  })
  const [deployment] = JSON.parse(listed.stdout) as { branch: string; commitMessage: string | null }[]
  assert.equal(deployment?.branch, 'main')
  assert.equal(deployment?.commitMessage, null)

  // Even a site made inside the checkout (as the README once said) is not the linter's business.
  await run(docsctl, ['new', 'inside', '--slug', 'inside-docs', '--template', 'starter', '--yes'], {
    cwd: clone,
    env: shellEnv,
  })
  await run('npm', ['run', 'lint'], { cwd: clone, env: shellEnv, timeout: 5 * 60_000 })
  if (process.env.WALKTHROUGH_NPM_TEST === '1')
    await run('npm', ['test'], { cwd: clone, env: { ...shellEnv, PORT: '' }, timeout: 60 * 60_000 })
})
