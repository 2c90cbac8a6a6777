import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function site(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rename-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'guide'))
  await mkdir(join(dir, 'images'))
  await writeFile(join(dir, 'images', 'logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  await writeFile(
    join(dir, 'docs.json'),
    `{
  "name": "Plants",
  "navigation": {
    "groups": [
      { "group": "Start", "pages": ["index", "quickstart"] },
      { "group": "Guide", "pages": ["guide/watering"] }
    ]
  },
  "redirects": [
    { "source": "/start", "destination": "/quickstart#install" }
  ]
}
`,
  )
  await writeFile(
    join(dir, 'index.mdx'),
    '---\ntitle: Home\n---\n\nSee [the quickstart](/quickstart#install) or <a href="./quickstart.mdx">here</a>.\n\n```md\n[an example](/quickstart)\n```\n',
  )
  await writeFile(
    join(dir, 'quickstart.mdx'),
    '---\ntitle: Quickstart\n---\n\n## Install\n\nThen [water](guide/watering) and ![logo](images/logo.png).\n',
  )
  await writeFile(
    join(dir, 'guide', 'watering.mdx'),
    '---\ntitle: Watering\n---\n\nBack to [start](../quickstart).\n',
  )
  return dir
}

test('rename moves the page and updates navigation, links and redirects; validate then passes', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(t)
  const dry = runCli(['rename', 'quickstart', 'guide/quickstart', '--dry-run'], dir)
  assert.equal(dry.status, 0, dry.stderr)
  assert.match(
    dry.stderr,
    /would move quickstart\.mdx → guide\/quickstart\.mdx, a redirect \/quickstart → \/guide\/quickstart, links in 2 pages \(dry run; nothing written\)/,
  )
  assert.match(
    dry.stdout,
    /^rename from quickstart\.mdx\nrename to guide\/quickstart\.mdx\n--- a\/quickstart\.mdx\n\+\+\+ b\/guide\/quickstart\.mdx\n/m,
  )
  assert.ok(existsSync(join(dir, 'quickstart.mdx')) && !existsSync(join(dir, 'guide', 'quickstart.mdx')))

  const run = runCli(['rename', 'quickstart', 'guide/quickstart'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout, dry.stdout)
  assert.ok(!existsSync(join(dir, 'quickstart.mdx')))
  assert.equal(
    await readFile(join(dir, 'docs.json'), 'utf8'),
    `{
  "name": "Plants",
  "navigation": {
    "groups": [
      { "group": "Start", "pages": ["index", "guide/quickstart"] },
      { "group": "Guide", "pages": ["guide/watering"] }
    ]
  },
  "redirects": [
    { "source": "/start", "destination": "/guide/quickstart#install" },
    { "source": "/quickstart", "destination": "/guide/quickstart" }
  ]
}
`,
  )
  assert.equal(
    await readFile(join(dir, 'index.mdx'), 'utf8'),
    '---\ntitle: Home\n---\n\nSee [the quickstart](/guide/quickstart#install) or <a href="./guide/quickstart.mdx">here</a>.\n\n```md\n[an example](/quickstart)\n```\n',
  )
  assert.equal(
    await readFile(join(dir, 'guide', 'quickstart.mdx'), 'utf8'),
    '---\ntitle: Quickstart\n---\n\n## Install\n\nThen [water](watering) and ![logo](../images/logo.png).\n',
  )
  assert.equal(
    await readFile(join(dir, 'guide', 'watering.mdx'), 'utf8'),
    '---\ntitle: Watering\n---\n\nBack to [start](quickstart).\n',
  )
  const validate = runCli(['validate', '.'], dir)
  assert.equal(validate.status, 0, validate.stderr)
})

test('rename adds redirects to a docs.json without them, keeping its indentation', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(t)
  await writeFile(
    join(dir, 'docs.json'),
    '{\n\t"name": "Plants",\n\t"navigation": {\n\t\t"pages": ["index", "quickstart", "guide/watering"]\n\t}\n}\n',
  )
  const run = runCli(['rename', 'guide/watering.mdx', 'guide/water.mdx'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(
    await readFile(join(dir, 'docs.json'), 'utf8'),
    '{\n\t"name": "Plants",\n\t"navigation": {\n\t\t"pages": ["index", "quickstart", "guide/water"]\n\t},\n\t"redirects": [\n\t\t{\n\t\t\t"source": "/guide/watering",\n\t\t\t"destination": "/guide/water"\n\t\t}\n\t]\n}\n',
  )
  assert.ok(existsSync(join(dir, 'guide', 'water.mdx')))
  assert.match(await readFile(join(dir, 'quickstart.mdx'), 'utf8'), /\[water\]\(guide\/water\)/)
})

test('rename refuses an existing target and a missing page, and writes nothing', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(t)
  const before = await readFile(join(dir, 'docs.json'), 'utf8')
  const taken = runCli(['rename', 'quickstart', 'index'], dir)
  assert.equal(taken.status, 1)
  assert.equal(
    taken.stderr,
    'error "index.mdx" already exists; move or delete it first, or choose another name\n',
  )
  const missing = runCli(['rename', 'setup', 'install'], dir)
  assert.equal(missing.status, 1)
  assert.match(missing.stderr, /^error no page "setup\.mdx" or "setup\.md" in "\."; pass the page to move$/m)
  assert.equal(await readFile(join(dir, 'docs.json'), 'utf8'), before)
  assert.ok(existsSync(join(dir, 'quickstart.mdx')))
})

test('rename out of a folder removes the folder it leaves empty, given from above the docs directory', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(t)
  const parent = join(dir, '..')
  const docs = join(dir).slice(parent.length + 1)
  const run = runCli(['rename', `${docs}/guide/watering.mdx`, 'watering', '--dir', docs], parent)
  assert.equal(run.status, 0, run.stderr)
  assert.ok(existsSync(join(dir, 'watering.mdx')))
  assert.ok(!existsSync(join(dir, 'guide')))
  assert.match(await readFile(join(dir, 'quickstart.mdx'), 'utf8'), /\[water\]\(watering\)/)
})
