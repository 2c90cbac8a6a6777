/**
 * The commands that manage what is deployed, through the real `docsctl` binary against a real
 * `docs-server`: push --preview / --no-wait with GitHub outputs, a build folder inside the site,
 * deployments list|show|promote, keys create|list|revoke, projects list|show|delete and open.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
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

const slug = 'manage-docs'
let server: DocsServer
let work: string
let configDir: string
let site: string

const env = (extra: NodeJS.ProcessEnv = {}) =>
  cleanEnv({ DOCSCTL_CONFIG_DIR: configDir, DOCSCTL_API_URL: server.apiUrl, ...extra })
const docsctl = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: env(extra), cwd: site })

const ok = (run: CliRun, what: string) => assert.equal(run.code, 0, `${what}:\n${run.stdout}\n${run.stderr}`)
const noStackTrace = (run: CliRun) => assert.doesNotMatch(run.stderr + run.stdout, /\n\s+at .+:\d+:\d+/)

interface DeploymentJson {
  id: string
  status: string
  live: boolean
  url: string | null
  previewUrl: string | null
}

async function editPage(text: string): Promise<void> {
  await writeFile(join(site, 'index.mdx'), `---\ntitle: Home\n---\n\n${text}\n`)
}

async function liveText(): Promise<string> {
  return (await server.fetchSite(slug, '/')).text()
}

before(async () => {
  server = await startDocsServer()
  work = await mkdtemp(join(tmpdir(), 'docsctl-manage-'))
  configDir = join(work, 'config')
  site = join(work, 'site')
  await cp(fromPackageRoot('fixtures', 'sites', 'minimal'), site, { recursive: true })
  const config = JSON.parse(await readFile(join(site, 'docs.json'), 'utf8')) as Record<string, unknown>
  await writeFile(join(site, 'docs.json'), JSON.stringify({ ...config, slug }, null, 2))
  const { authorizeUrl, done } = await startLogin(['--port', String(await freePort())], env())
  await signInThroughBrowser(authorizeUrl, 'ada@example.com')
  ok(await done, 'login')
  const { accessToken } = JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')) as {
    accessToken: string
  }
  const created = await fetch(`${server.apiUrl}/projects/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Manage Docs', slug }),
  })
  assert.equal(created.status, 201)
})

after(async () => {
  await server?.stop()
  await rm(work, { recursive: true, force: true })
})

let first: string
let second: string

test('open, before anything is live, says how to deploy', async () => {
  const run = await docsctl(['open', '--json'])
  assert.equal(run.code, 1)
  assert.match(run.stderr, /manage-docs has nothing live yet\. Deploy it with `docsctl push`/)
})

test('push goes live; a build folder inside the site is skipped, not uploaded', async () => {
  await editPage('First version.')
  const push = await docsctl(['push'])
  ok(push, 'push')
  assert.match(push.stdout, /uploaded 2 of 2 files/)
  first = /Deployed (dpl_\w+)/.exec(push.stdout)![1]!

  ok(await docsctl(['build', '--out', 'site']), 'build inside the docs folder')
  await editPage('Second version.')
  const again = await docsctl(['push'])
  ok(again, 'push with a build folder')
  assert.match(again.stderr, /Skipping site\/: it holds the output of `docsctl build`/)
  assert.match(again.stdout, /uploaded 1 of 2 files/, 'only the edited page, none of the build')
  second = /Deployed (dpl_\w+)/.exec(again.stdout)![1]!
  assert.match(await liveText(), /Second version\./)
  assert.equal((await server.fetchSite(slug, '/site/llms.txt')).status, 404)
})

test('push --preview leaves the live site alone and writes the URLs for GitHub Actions', async () => {
  await editPage('Preview version.')
  const outputs = join(work, 'github-output')
  const summary = join(work, 'github-summary')
  const push = await docsctl(['push', '--preview'], { GITHUB_OUTPUT: outputs, GITHUB_STEP_SUMMARY: summary })
  ok(push, 'push --preview')
  const previewUrl = /Preview at (\S+)/.exec(push.stdout)![1]!
  assert.match(previewUrl, new RegExp(`^http://[a-z0-9]+--${slug}\\.localhost:${server.port}/$`))
  assert.match(push.stdout, /Make it live: docsctl deployments promote dpl_\w+ --project manage-docs/)
  assert.match(await liveText(), /Second version\./, 'still the promoted deployment')
  const written = await readFile(outputs, 'utf8')
  assert.match(written, /^deployment-id=dpl_\w+$/m)
  assert.match(written, /^status=ready$/m)
  assert.match(written, /^live=false$/m)
  assert.ok(written.includes(`\nurl=${previewUrl}\n`), written)
  assert.ok(written.includes(`\npreview-url=${previewUrl}\n`), written)
  assert.match(await readFile(summary, 'utf8'), new RegExp(`\\| Preview \\| <${previewUrl}> \\|`))
})

test('push --no-wait returns while the build runs; deployments show follows it', async () => {
  await editPage('Third version.')
  const push = await docsctl(['push', '--no-wait'])
  ok(push, 'push --no-wait')
  const id = /(?:Started|Deployed) (dpl_\w+)/.exec(push.stdout)?.[1]
  assert.ok(id, push.stdout)
  if (push.stdout.startsWith('Started'))
    assert.match(push.stdout, new RegExp(`docsctl deployments show ${id} --project ${slug}`))
  let deployment: DeploymentJson | undefined
  for (let attempt = 0; attempt < 100; attempt++) {
    const show = await docsctl(['deployments', 'show', id, '--json'])
    ok(show, 'deployments show --json')
    deployment = JSON.parse(show.stdout) as DeploymentJson
    if (deployment.status === 'ready') break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.equal(deployment?.status, 'ready')
  assert.equal(deployment?.live, true)
  assert.match(await liveText(), /Third version\./)
})

test('deployments list and show, as a table and as JSON', async () => {
  const list = await docsctl(['deployments', 'list'])
  ok(list, 'deployments list')
  assert.match(list.stdout, /^ID\s+STATE\s+BRANCH\s+CREATED\s+MESSAGE$/m)
  assert.match(list.stdout, /ready, live/)
  const json = await docsctl(['deployments', 'list', '--json', '--limit', '10'])
  const deployments = JSON.parse(json.stdout) as DeploymentJson[]
  assert.equal(deployments.length, 4)
  assert.deepEqual(
    deployments.map((deployment) => deployment.live),
    [true, false, false, false],
    'newest first, the newest live',
  )
  const show = await docsctl(['deployments', 'show', first])
  ok(show, 'deployments show')
  assert.match(show.stdout, new RegExp(`^${first} of ${slug}: ready$`, 'm'))
  assert.match(show.stdout, new RegExp(`Make it live: docsctl deployments promote ${first}`))
  const missing = await docsctl(['deployments', 'show', 'dpl_nothere'])
  assert.equal(missing.code, 1)
  assert.match(
    missing.stderr,
    /No deployment dpl_nothere in manage-docs\. `docsctl deployments list --project manage-docs` shows the ids\./,
  )
  const badLimit = await docsctl(['deployments', 'list', '--limit', '500'])
  assert.equal(badLimit.code, 1)
  assert.match(badLimit.stdout + badLimit.stderr, /--limit must be a whole number from 1 to 100, not "500"/)
})

test('deployments promote rolls back, asking first unless --yes', async () => {
  const unconfirmed = await docsctl(['deployments', 'promote', first])
  assert.equal(unconfirmed.code, 1)
  assert.match(unconfirmed.stderr, /needs confirmation\. Run it in a terminal, or pass --yes in a script\./)
  assert.match(await liveText(), /Third version\./, 'nothing changed')
  const promoted = await docsctl(['deployments', 'promote', first, '--yes'])
  ok(promoted, 'promote --yes')
  assert.match(promoted.stdout, new RegExp(`Promoted ${first}\\. Live at http://${slug}\\.localhost:`))
  assert.match(await liveText(), /First version\./)
  const already = await docsctl(['deployments', 'promote', first, '--yes'])
  ok(already, 'promote the live one')
  assert.match(already.stdout, /is already live/)
  ok(await docsctl(['deployments', 'promote', second, '--yes', '--project', slug]), 'promote forward')
  assert.match(await liveText(), /Second version\./)
})

test('in a terminal, deployments promote asks, and only a yes changes the live site', {
  skip: spawnSync('tmux', ['-V']).error !== undefined && 'needs tmux',
}, async (t) => {
  const socket = `docsctl-manage-${process.pid}`
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' })
  t.after(() => tmux('kill-server'))
  const variables = Object.entries(env()).map(([key, value]) => `${key}=${value}`)
  const promoteIn = (session: string) => {
    const command = [process.execPath, cliBin, 'deployments', 'promote', first].join(' ')
    const started = tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '30',
      '-c',
      site,
      'env',
      '-i',
      ...variables,
      'sh',
      '-c',
      `${command}; echo "EXIT=$?"; sleep 30`,
    )
    assert.equal(started.status, 0, started.stderr)
  }
  const waitFor = async (session: string, text: string) => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const screen = tmux('capture-pane', '-p', '-J', '-t', session).stdout
      if (screen.includes(text)) return screen
      await sleep(100)
    }
    assert.fail(`"${text}" never appeared:\n${tmux('capture-pane', '-p', '-t', session).stdout}`)
  }
  promoteIn('no')
  await waitFor('no', `Make ${first}`)
  tmux('send-keys', '-t', 'no', 'Enter')
  assert.match(await waitFor('no', 'EXIT='), /Cancelled; nothing changed\.[\s\S]*EXIT=1/)
  assert.match(await liveText(), /Second version\./)
  promoteIn('yes')
  await waitFor('yes', `Make ${first}`)
  tmux('send-keys', '-t', 'yes', 'y')
  tmux('send-keys', '-t', 'yes', 'Enter')
  assert.match(await waitFor('yes', 'EXIT='), /Promoted[\s\S]*EXIT=0/)
  assert.match(await liveText(), /First version\./)
  ok(await docsctl(['deployments', 'promote', second, '--yes']), 'promote forward again')
})

test('keys create, list and revoke; a revoked key is refused with the command to make a new one', async () => {
  const created = await docsctl(['keys', 'create', 'GitHub Actions', '--json'])
  ok(created, 'keys create')
  const { deployKey, token } = JSON.parse(created.stdout) as { deployKey: { id: string }; token: string }
  assert.match(token, /^dk_/)
  const list = await docsctl(['keys', 'list'])
  ok(list, 'keys list')
  assert.match(list.stdout, new RegExp(`${deployKey.id}\\s+${token.slice(0, 10)}…\\s+GitHub Actions`))
  assert.ok(!list.stdout.includes(token), 'never the value')

  const ci = cleanEnv({ DOCSCTL_API_URL: server.apiUrl, DOCSCTL_API_KEY: token, CI: 'true' })
  ok(await runCli(['push'], { env: ci, cwd: site }), 'push with the key')

  const revoke = await docsctl(['keys', 'revoke', deployKey.id])
  assert.equal(revoke.code, 1, 'asks first')
  ok(await docsctl(['keys', 'revoke', deployKey.id, '--yes']), 'keys revoke --yes')
  const refused = await runCli(['push'], { env: ci, cwd: site })
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /The deploy key was refused.*`docsctl keys create --project manage-docs`/)
  noStackTrace(refused)
  const unknown = await docsctl(['keys', 'revoke', 'key_nothere', '--yes'])
  assert.equal(unknown.code, 1)
  assert.match(
    unknown.stderr,
    /No active deploy key "key_nothere" in manage-docs\. Pass an id from `docsctl keys list/,
  )
})

test('projects list and show; open prints or opens the live URL', async () => {
  const list = await docsctl(['projects', 'list'])
  ok(list, 'projects list')
  assert.match(
    list.stdout,
    new RegExp(`^${slug}\\s+Manage Docs\\s+http://${slug}\\.localhost:${server.port}/`, 'm'),
  )
  const projects = JSON.parse((await docsctl(['projects', 'list', '--json'])).stdout) as { slug: string }[]
  assert.deepEqual(
    projects.map((project) => project.slug),
    [slug],
  )
  const show = await docsctl(['projects', 'show', slug])
  ok(show, 'projects show')
  assert.match(show.stdout, /^Manage Docs \(manage-docs, prj_\w+\)$/m)
  assert.match(show.stdout, /Latest deployments/)

  const url = `http://${slug}.localhost:${server.port}/`
  const printed = await docsctl(['open', '--json'])
  ok(printed, 'open --json')
  assert.deepEqual(JSON.parse(printed.stdout), { url })
  // xdg-open hands the URL to $BROWSER when no desktop is running: a script that records it.
  const opened = join(work, 'opened-url')
  const browser = join(work, 'browser.sh')
  await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > ${opened}\n`)
  await chmod(browser, 0o755)
  const open = await docsctl(['open'], { BROWSER: browser })
  ok(open, 'open')
  assert.equal(open.stdout, `Opening ${url}\n`)
  let recorded = ''
  for (let attempt = 0; attempt < 50 && !recorded; attempt++) {
    recorded = await readFile(opened, 'utf8').catch(() => '')
    if (!recorded) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.equal(recorded, url)
})

test('projects delete asks first, then takes the site offline', async () => {
  const unconfirmed = await docsctl(['projects', 'delete', slug])
  assert.equal(unconfirmed.code, 1)
  assert.match(unconfirmed.stderr, /Deleting manage-docs needs confirmation/)
  const deleted = await docsctl(['projects', 'delete', slug, '--yes'])
  ok(deleted, 'projects delete --yes')
  assert.match(deleted.stdout, /Deleted manage-docs;/)
  assert.equal((await server.fetchSite(slug, '/')).status, 404)
  const gone = await docsctl(['projects', 'show', slug])
  assert.equal(gone.code, 1)
  assert.match(gone.stderr, /No project "manage-docs" on http:\/\/127\.0\.0\.1:\d+ that you can reach/)
})

test('signed out, the commands say to log in; whoami only warns and exits 0', async () => {
  const signedOut = { DOCSCTL_CONFIG_DIR: join(work, 'nobody') }
  for (const args of [['projects', 'list'], ['deployments', 'list'], ['keys', 'list'], ['open']]) {
    const run = await docsctl(args, signedOut)
    assert.equal(run.code, 1, args.join(' '))
    assert.match(
      run.stderr,
      /You are not signed in\. Run `docsctl login --api-url http:\/\/127\.0\.0\.1:\d+` first\./,
    )
    noStackTrace(run)
  }
  const whoami = await docsctl(['whoami'], signedOut)
  assert.equal(whoami.code, 0)
  assert.match(whoami.stderr, /^Warning: You are not signed in\./)
})

test('help names every option value instead of #0', async () => {
  const help = await docsctl(['--help'])
  ok(help, '--help')
  assert.doesNotMatch(help.stdout, /#\d/)
  assert.match(help.stdout, /docsctl push \[--project <slug>\] \[--api-key <key>\] \[--api-url <url>\]/)
  assert.match(help.stdout, /docsctl deployments promote \[--yes\]/)
  const push = await docsctl(['push', '--help'])
  assert.match(push.stdout, /^ {2}--project <slug> +Project slug/m)
  assert.match(push.stdout, /^ {2}--allow-spec-host <host> +Fetch OpenAPI documents/m)
  assert.match(push.stdout, /^ {2}--no-wait +Return once the build has started/m)
})
