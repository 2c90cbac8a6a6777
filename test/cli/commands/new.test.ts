import assert from 'node:assert/strict'
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { deriveSlug } from '../../../cli/commands/new.js'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function workspace(t: { after: (fn: () => Promise<void>) => void }, name = 'acme'): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'new-'))
  t.after(() => rm(parent, { recursive: true, force: true }))
  const dir = join(parent, name)
  await mkdir(dir)
  return dir
}

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = prefix + entry.name
    if (entry.isDirectory()) out.push(...(await listFiles(join(dir, entry.name), `${path}/`)))
    else out.push(path)
  }
  return out.sort()
}

test('--yes in an empty directory scaffolds there with a slug derived from its name, and it validates', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t, 'Acme Handbook')
  const run = runCli(['new', '--yes'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.deepEqual(await listFiles(dir), ['docs.json', 'index.mdx'])
  assert.deepEqual(await readJson(join(dir, 'docs.json')), {
    $schema: 'http://localhost:8080/schemas/docs.schema.json',
    name: 'Acme Handbook',
    slug: 'acme-handbook',
    navigation: { groups: [{ group: 'Getting Started', pages: ['index'] }] },
  })
  assert.match(await readFile(join(dir, 'index.mdx'), 'utf8'), /^---\ntitle: Introduction\n/)
  assert.match(
    run.stdout,
    /^Created Acme Handbook \(acme-handbook\) in \. from the minimal template:\n {2}docs\.json\n {2}index\.mdx\n/,
  )
  const validate = runCli(['validate'], dir)
  assert.equal(validate.status, 0, validate.stderr)
})

test('a non-empty directory without a terminal falls back to docs/, named after the project', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t, 'acme')
  await writeFile(join(dir, 'package.json'), '{}')
  const run = runCli(['new'], dir, { DOCSCTL_SCHEMA_URL: 'https://api.example.com/schemas/docs.schema.json' })
  assert.equal(run.status, 0, run.stderr)
  const config = await readJson(join(dir, 'docs', 'docs.json'))
  assert.equal(config.$schema, 'https://api.example.com/schemas/docs.schema.json')
  assert.equal(config.slug, 'acme-docs')
  assert.equal(config.name, 'Acme Docs')
  assert.match(run.stdout, /\n {2}cd docs\n/)
  assert.equal(runCli(['validate'], dir).status, 0)
})

test('--template starter writes the full file list, links AGENTS.md to CLAUDE.md and writes no LICENSE', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const run = runCli(
    ['new', 'site', '--template', 'starter', '--slug', 'acme-api', '--display-name', 'Acme "API" <Docs>'],
    dir,
  )
  assert.equal(run.status, 0, run.stderr)
  const site = join(dir, 'site')
  assert.deepEqual(await listFiles(site), [
    '.gitignore',
    'AGENTS.md',
    'CLAUDE.md',
    'README.md',
    'development.mdx',
    'docs.json',
    'favicon.svg',
    'images/checks-passed.svg',
    'images/hero-dark.svg',
    'images/hero-light.svg',
    'index.mdx',
    'logo/dark.svg',
    'logo/light.svg',
    'quickstart.mdx',
  ])
  assert.ok((await lstat(join(site, 'AGENTS.md'))).isSymbolicLink())
  assert.equal(await readlink(join(site, 'AGENTS.md')), 'CLAUDE.md')
  const config = await readJson(join(site, 'docs.json'))
  assert.equal(config.name, 'Acme "API" <Docs>')
  assert.equal(config.slug, 'acme-api')
  assert.match(
    await readFile(join(site, 'index.mdx'), 'utf8'),
    /documentation of Acme "API" &#60;Docs&#62;\./,
  )
  for (const theme of ['light', 'dark']) {
    const logo = await readFile(join(site, 'logo', `${theme}.svg`), 'utf8')
    assert.match(logo, />Acme &#34;API&#34; &#60;Docs&#62;<\/text>/, `the ${theme} logo shows the name`)
    assert.match(logo, /^<svg [^>]*width="210"/, 'the logo is as wide as the name')
  }
  const validate = runCli(['validate', 'site'], dir)
  assert.equal(validate.status, 0, validate.stderr)
  assert.match(validate.stdout, /3 pages/)
  const build = runCli(['build', 'site', '--out', 'out'], dir)
  assert.equal(build.status, 0, build.stderr)
  const page = await readFile(join(dir, 'out', 'index.html'), 'utf8')
  assert.match(page, /<img class="d-only-light" src="images\/hero-light\.svg\?v=[0-9a-f]{12}"/)
  assert.match(
    page,
    /<img class="d-only-dark" src="images\/hero-dark\.svg\?v=[0-9a-f]{12}"/,
    'dark mode has its own hero',
  )
})

test('--name still works but warns that it is deprecated', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  const run = runCli(['new', 'out', '--name', 'legacy-name', '--yes'], dir)
  assert.equal(run.status, 0)
  assert.equal(run.stderr, 'warning --name is deprecated; use --slug\n')
  assert.equal((await readJson(join(dir, 'out', 'docs.json'))).slug, 'legacy-name')
})

/** A folder `name` in `dir` that already holds one file. */
async function folderHolding(dir: string, name: string, file: string, text: string): Promise<void> {
  await mkdir(join(dir, name))
  await writeFile(join(dir, name, file), text)
}

test('refuses to overwrite scaffolded files and to fill a non-empty directory without confirmation', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await folderHolding(dir, 'docs', 'index.mdx', 'mine')
  const clash = runCli(['new', 'docs', '--yes'], dir)
  assert.equal(clash.status, 1)
  assert.equal(
    clash.stderr,
    'error docs already holds index.mdx; docsctl new never overwrites files. Choose another directory.\n',
  )
  assert.equal(await readFile(join(dir, 'docs', 'index.mdx'), 'utf8'), 'mine')
  await folderHolding(dir, 'other', 'notes.txt', 'x')
  const nonEmpty = runCli(['new', 'other', '--yes'], dir)
  assert.equal(nonEmpty.status, 1)
  assert.equal(
    nonEmpty.stderr,
    'error other is not empty; pass an empty or new directory, or run in a terminal to confirm\n',
  )
  assert.deepEqual(await readdir(join(dir, 'other')), ['notes.txt'])
})

test('bad options are usage errors with a fix', { skip: needs('a built binary') }, async (t) => {
  const dir = await workspace(t)
  const slug = runCli(['new', 'x', '--slug', 'My Docs', '--yes'], dir)
  assert.equal(slug.status, 1)
  assert.equal(
    slug.stderr,
    'error slug "My Docs" may hold only lowercase letters a-z, digits and "-"; try "my-docs"\n',
  )
  const template = runCli(['new', 'x', '--template', 'fancy', '--yes'], dir)
  assert.equal(template.status, 1)
  assert.equal(template.stderr, 'error unknown template "fancy"; expected "minimal" or "starter"\n')
  const help = runCli(['new', '--help'], dir)
  assert.equal(help.status, 0)
  assert.match(help.stdout, /Create a docs site from a template/)
  assert.match(help.stdout, /docsctl new --yes/)
  assert.deepEqual(await readdir(dir), [])
})

test('deriveSlug makes a valid slug from any directory name', () => {
  assert.equal(deriveSlug('/home/me/acme/docs'), 'acme-docs')
  assert.equal(deriveSlug('/home/me/Café Manual'), 'cafe-manual')
  assert.equal(deriveSlug('/tmp/x'), 'x-docs')
  assert.equal(deriveSlug('/tmp/__'), 'my-docs')
  assert.equal(deriveSlug('/tmp/a--b'), 'a-b')
})

test('refuses a slug the server reserves, before writing anything', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const run = runCli(['new', 'out', '--slug', 'docs', '--yes'], dir)
  assert.equal(run.status, 1)
  assert.match(run.stderr, /slug "docs" is reserved for the service; choose another/)
  assert.deepEqual(await readdir(dir), [])
})
