import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function workspace(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'upgrade-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const mint = {
  name: 'Legacy',
  colors: { primary: '#000' },
  anchors: [{ name: 'Blog', icon: 'newspaper', url: 'https://example.com/blog' }],
  navigation: [{ group: 'Start', pages: ['index'] }],
}
const page = '---\ntitle: Home\nsideBarTitle: Start\n---\n\nHello.\n'

test('upgrade writes docs.json from mint.json and leaves pages to migrate', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(join(dir, 'mint.json'), `${JSON.stringify(mint, null, 2)}\n`)
  await writeFile(join(dir, 'index.mdx'), page)

  const dry = runCli(['upgrade', '.', '--dry-run'], dir)
  assert.equal(dry.status, 0, dry.stderr)
  assert.match(dry.stdout, /^--- a\/mint\.json\n\+\+\+ b\/docs\.json\n/)
  assert.match(dry.stderr, /dry run; nothing written/)
  assert.ok(!existsSync(join(dir, 'docs.json')))

  const run = runCli(['upgrade', '.'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout, dry.stdout)
  assert.ok(!existsSync(join(dir, 'mint.json')))
  const docs = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>
  assert.equal(docs.name, 'Legacy')
  assert.equal(docs.colors, undefined)
  // Pages are migrate's business, not upgrade's.
  assert.equal(await readFile(join(dir, 'index.mdx'), 'utf8'), page)
  assert.match(run.stderr, /`docsctl migrate \.` for pages/)

  // docs.json is valid; what is left is the page's typo, which `migrate` fixes.
  const validate = runCli(['validate', '.', '--config-only'], dir)
  const errors = validate.stderr.split('\n').filter((line) => line.startsWith('error '))
  assert.deepEqual(errors, [
    'error index.mdx:3:1 sideBarTitle: Unknown front matter key "sideBarTitle"; did you mean "sidebarTitle"?',
  ])

  const again = runCli(['upgrade', '.'], dir)
  assert.equal(again.status, 0)
  assert.equal(again.stdout, '')
  assert.match(again.stderr, /already has docs\.json/)
})

test('upgrade without mint.json or docs.json says which folder to pass', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const run = runCli(['upgrade', '.'], dir)
  assert.equal(run.status, 1)
  assert.match(run.stderr, /^error no mint\.json in "\."; pass the folder that holds it$/m)
})
