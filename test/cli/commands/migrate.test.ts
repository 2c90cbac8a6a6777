import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { migrateSite } from '../../../compiler/config/migrate.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { validateSite } from '../../../compiler/validate-site.js'
import { readSiteFiles } from '../../../lib/site-dir.js'
import { unifiedDiff } from '../../../lib/unified-diff.js'
import { corpusRoot, corpusSites } from '../../corpus.js'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function workspace(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrate-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const errorLines = (output: string) => output.split('\n').filter((line) => line.startsWith('error '))

/** docs.json's strict errors, as `docsctl validate --config-only` reports them. */
const configErrors = (files: Map<string, Uint8Array>) =>
  validateSite(files, { mode: 'strict' }).diagnostics.filter((diagnostic) => diagnostic.severity === 'error')

// Every corpus site through the functions `docsctl migrate` and `validate --config-only` run, in this
// process; the binary itself runs on one of them below (each start of docsctl costs a quarter second of CPU).
for (const site of corpusSites) {
  test(`corpus ${site}: after migrate, docs.json has no strict errors left`, async () => {
    const { files } = await readSiteFiles(join(corpusRoot, site))
    assert.notDeepEqual(configErrors(files), [])
    const migrated = migrateSite(files)
    const config = migrated.find((file) => file.path === 'docs.json')
    assert.ok(config, 'docs.json is migrated')
    assert.match(unifiedDiff(config.path, config.before, config.after), /^-\s+"theme": /m)
    const encoder = new TextEncoder()
    for (const file of migrated) {
      files.set(file.path, encoder.encode(file.after))
      if (file.from) files.delete(file.from)
    }
    assert.deepEqual(configErrors(files).map(formatDiagnostic), [])
    // A second run finds nothing left to do.
    assert.deepEqual(migrateSite(files), [])
  })
}

test('docsctl migrate rewrites a corpus site in place, prints the diff, and validate then passes', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = join(await workspace(t), 'rallly')
  await cp(join(corpusRoot, 'rallly'), dir, { recursive: true })
  const before = runCli(['validate', '.', '--config-only'], dir)
  assert.equal(before.status, 1)
  const migrate = runCli(['migrate', '.'], dir)
  assert.equal(migrate.status, 0, migrate.stderr)
  assert.match(migrate.stdout, /^--- a\/docs\.json\n\+\+\+ b\/docs\.json\n@@ /)
  assert.match(migrate.stdout, /^-\s+"theme": /m)
  const after = runCli(['validate', '.', '--config-only'], dir)
  assert.deepEqual(errorLines(after.stderr), [])
  assert.equal(after.status, 0, after.stderr)
  // A second run finds nothing left to do.
  const again = runCli(['migrate', '.'], dir)
  assert.equal(again.stdout, '')
  assert.match(again.stderr, /nothing to migrate/)
})

test('mint.json becomes docs.json (its feedback setting kept), case-only key typos are fixed, and validate then passes', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(
    join(dir, 'mint.json'),
    `${JSON.stringify(
      {
        name: 'Legacy',
        theme: 'prism',
        colors: { primary: '#000' },
        topbarLinks: [{ name: 'Support', url: 'https://example.com/support' }],
        topbarCtaButton: { type: 'github', url: 'https://github.com/acme/acme' },
        anchors: [{ name: 'Blog', icon: 'newspaper', url: 'https://example.com/blog' }],
        tabs: [{ name: 'API', url: 'api' }],
        navigation: [
          { group: 'Start', pages: ['index'] },
          { group: 'Endpoints', pages: ['api/users'] },
        ],
        footerSocials: { github: 'https://github.com/acme' },
        feedback: { thumbsRating: false },
      },
      null,
      2,
    )}\n`,
  )
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\nsideBarTitle: Start\n---\n\nHello.\n')
  await mkdir(join(dir, 'api'))
  await writeFile(join(dir, 'api', 'users.mdx'), '---\ntitle: Users\n---\n\nUsers.\n')

  const dry = runCli(['migrate', '.', '--dry-run'], dir)
  assert.equal(dry.status, 0, dry.stderr)
  assert.match(dry.stdout, /^--- a\/mint\.json\n\+\+\+ b\/docs\.json\n/)
  assert.match(dry.stdout, /^-sideBarTitle: Start\n\+sidebarTitle: Start$/m)
  assert.match(dry.stderr, /would change \(dry run; nothing written\)/)
  assert.ok(!existsSync(join(dir, 'docs.json')))

  const run = runCli(['migrate', '.'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout, dry.stdout)
  assert.ok(!existsSync(join(dir, 'mint.json')))
  const docs = JSON.parse(await readFile(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>
  assert.deepEqual(docs, {
    name: 'Legacy',
    navigation: {
      tabs: [
        { tab: 'Documentation', groups: [{ group: 'Start', pages: ['index'] }] },
        { tab: 'API', groups: [{ group: 'Endpoints', pages: ['api/users'] }] },
      ],
      global: { anchors: [{ icon: 'newspaper', anchor: 'Blog', href: 'https://example.com/blog' }] },
    },
    navbar: {
      links: [{ label: 'Support', href: 'https://example.com/support' }],
      primary: { type: 'github', href: 'https://github.com/acme/acme' },
    },
    footer: { socials: { github: 'https://github.com/acme' } },
    feedback: { thumbsRating: false },
  })
  const validate = runCli(['validate', '.'], dir)
  assert.equal(validate.status, 0, validate.stderr)
  assert.equal(validate.stderr, '')
})

test('docs.json keys differing only in case are renamed in place, formatting kept', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  await writeFile(
    join(dir, 'docs.json'),
    '{\n\t"name": "Case",\n\t"Appearance": { "default": "dark" },\n\t"navigation": { "pages": ["index"] }\n}\n',
  )
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nHello.\n')
  const run = runCli(['migrate'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.equal(
    await readFile(join(dir, 'docs.json'), 'utf8'),
    '{\n\t"name": "Case",\n\t"appearance": { "default": "dark" },\n\t"navigation": { "pages": ["index"] }\n}\n',
  )
  assert.equal(
    run.stdout,
    '--- a/docs.json\n+++ b/docs.json\n@@ -1,5 +1,5 @@\n {\n \t"name": "Case",\n-\t"Appearance": { "default": "dark" },\n+\t"appearance": { "default": "dark" },\n \t"navigation": { "pages": ["index"] }\n }\n',
  )
  assert.equal(runCli(['validate', '.'], dir).status, 0)
})

test('migrate --help shows examples; a folder without docs.json or mint.json fails', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await workspace(t)
  const help = runCli(['migrate', '--help'], dir)
  assert.match(help.stdout, /docsctl migrate \.\/site --dry-run/)
  const empty = runCli(['migrate', '.'], dir)
  assert.equal(empty.status, 1)
  assert.match(empty.stderr, /no docs\.json or mint\.json/)
})
