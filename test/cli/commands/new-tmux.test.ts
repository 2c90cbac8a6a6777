/**
 * The interactive paths of `docsctl new`, driven in a real terminal: tmux runs the built binary on a
 * private socket, the test reads the screen and types answers as a user would.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { builtBinary, needs } from '../../tier.js'

const socket = `docsctl-new-test-${process.pid}`
let sessions = 0

const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' })

class Terminal {
  private constructor(readonly name: string) {}

  static start(cwd: string, args: string[]): Terminal {
    const name = `new-${++sessions}`
    const cli = builtBinary('docsctl')
    const command = `env NO_COLOR=1 ${process.execPath} ${cli} ${args.join(' ')}; echo "EXIT=$?"; sleep 60`
    const started = tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', '-c', cwd, command)
    assert.equal(started.status, 0, started.stderr)
    return new Terminal(name)
  }

  screen(): string {
    return tmux('capture-pane', '-p', '-t', this.name).stdout
  }

  /** Waits until the screen shows `text`; fails with the screen's content after 30 s. */
  async waitFor(text: string): Promise<string> {
    const deadline = Date.now() + 30_000
    for (;;) {
      const screen = this.screen()
      if (screen.includes(text)) return screen
      if (Date.now() > deadline) assert.fail(`"${text}" never appeared; the screen shows:\n${screen}`)
      await sleep(100)
    }
  }

  keys(...keys: string[]): void {
    tmux('send-keys', '-t', this.name, ...keys)
  }

  type(text: string): void {
    tmux('send-keys', '-t', this.name, '-l', text)
  }
}

async function workspace(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'new-tty-'))
  t.after(() => rm(parent, { recursive: true, force: true }))
  const dir = join(parent, 'acme')
  await mkdir(dir)
  await writeFile(join(dir, 'package.json'), '{}')
  return dir
}

test.after(() => {
  tmux('kill-server')
})

test('non-empty directory: choose the docs/ subdirectory, then edit the suggested slug', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const terminal = Terminal.start(dir, ['new'])
  await terminal.waitFor('acme is not empty. Where should the docs go?')
  terminal.keys('Enter')
  await terminal.waitFor('Project slug')
  await terminal.waitFor('acme-docs')
  terminal.keys(...Array<string>(12).fill('BSpace'))
  terminal.type('tmux-docs')
  terminal.keys('Enter')
  const screen = await terminal.waitFor('EXIT=')
  assert.match(screen, /EXIT=0/, screen)
  assert.match(screen, /Created Tmux Docs \(tmux-docs\) in docs from the minimal template/)
  const config = JSON.parse(await readFile(join(dir, 'docs', 'docs.json'), 'utf8'))
  assert.equal(config.slug, 'tmux-docs')
  assert.equal(config.name, 'Tmux Docs')
})

test('non-empty directory: scaffold in place, rejecting an invalid slug until it is fixed', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const terminal = Terminal.start(dir, ['new', '--template', 'starter'])
  await terminal.waitFor('Where should the docs go?')
  terminal.keys('Down')
  terminal.keys('Enter')
  await terminal.waitFor('Project slug')
  terminal.keys(...Array<string>(12).fill('BSpace'))
  terminal.type('ab')
  terminal.keys('Enter')
  await terminal.waitFor('The slug must be 3 to 63 characters')
  terminal.type('c-site')
  terminal.keys('Enter')
  const screen = await terminal.waitFor('EXIT=')
  assert.match(screen, /EXIT=0/, screen)
  const config = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8'))
  assert.equal(config.slug, 'abc-site')
  assert.ok((await readdir(dir)).includes('AGENTS.md'))
})

test('a non-empty target asks for confirmation; declining writes nothing', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const terminal = Terminal.start(dir, ['new', '.'])
  await terminal.waitFor('. is not empty. Scaffold into it anyway?')
  terminal.keys('Enter')
  const screen = await terminal.waitFor('EXIT=')
  assert.match(screen, /Cancelled; nothing was written\./)
  assert.match(screen, /EXIT=1/)
  assert.deepEqual(await readdir(dir), ['package.json'])
})

test('an empty directory is used as is; only the slug is asked, and the display name follows it', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await rm(join(dir, 'package.json'))
  const terminal = Terminal.start(dir, ['new', '--display-name', 'Acme\\ Handbook'])
  const prompt = await terminal.waitFor('Project slug')
  assert.doesNotMatch(prompt, /Where should the docs go/)
  terminal.keys('Enter')
  const screen = await terminal.waitFor('EXIT=')
  assert.match(screen, /EXIT=0/, screen)
  assert.deepEqual((await readdir(dir)).sort(), ['docs.json', 'index.mdx'])
  const config = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8'))
  assert.deepEqual([config.slug, config.name], ['acme', 'Acme Handbook'])
})
