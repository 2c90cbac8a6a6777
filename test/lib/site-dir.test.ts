import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import {
  explainMissingConfig,
  loadSiteFileFilter,
  readSiteFiles,
  resolveSiteDir,
  siteDirsTried,
} from '../../lib/site-dir.js'

async function tempTree(t: { after: (fn: () => Promise<void>) => void }, files: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'site-dir-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  return root
}

test('resolveSiteDir takes the argument, else the first of ., ./docs, ./apps/docs with a docs.json, else .', async (t) => {
  const root = await tempTree(t, { 'apps/docs/docs.json': '{}', 'docs/readme.md': '' })
  assert.equal(resolveSiteDir('site', root), join(root, 'site'))
  assert.equal(resolveSiteDir(undefined, root), join(root, 'apps', 'docs'))
  await writeFile(join(root, 'docs', 'docs.json'), '{}')
  assert.equal(resolveSiteDir(undefined, root), join(root, 'docs'))
  await writeFile(join(root, 'docs.json'), '{}')
  assert.equal(resolveSiteDir(undefined, root), root)
  const empty = await tempTree(t, {})
  assert.equal(resolveSiteDir(undefined, empty), empty)
})

test('readSiteFiles skips dot-entries, node_modules and .docsignore matches, with POSIX paths', async (t) => {
  const root = await tempTree(t, {
    'docs.json': '{"name":"A"}',
    'index.mdx': '# hi',
    'guide/setup.mdx': 'setup',
    'guide/drafts/wip.mdx': 'wip',
    'notes.tmp': 'x',
    '.env': 'SECRET=1',
    '.git/config': '',
    'node_modules/pkg/index.js': '',
    'guide/node_modules/x.js': '',
    '.docsignore': '*.tmp\nguide/drafts/\n',
  })
  const { files, problems } = await readSiteFiles(root)
  assert.deepEqual([...files.keys()], ['docs.json', 'guide/setup.mdx', 'index.mdx'])
  assert.equal(new TextDecoder().decode(files.get('docs.json')), '{"name":"A"}')
  assert.deepEqual(problems, [])
})

test('a folder holding a docsctl build output is skipped by readSiteFiles and by the dev filter', async (t) => {
  const root = await tempTree(t, {
    'docs.json': '{}',
    'index.mdx': '# hi',
    'site/.docsctl-build': 'Written by docsctl build',
    'site/index.html': '<p>built</p>',
    'site/guide/index.html': '<p>built</p>',
    'guide/site.mdx': 'a page named site is still a page',
  })
  const { files, buildOutputs } = await readSiteFiles(root)
  assert.deepEqual([...files.keys()], ['docs.json', 'guide/site.mdx', 'index.mdx'])
  assert.deepEqual(buildOutputs, ['site'])
  const isSiteFile = await loadSiteFileFilter(root)
  assert.equal(isSiteFile('site/guide/index.html'), false)
  assert.equal(isSiteFile('guide/site.mdx'), true)
})

test('readSiteFiles follows symlinks inside the root and refuses those pointing outside', async (t) => {
  const outside = await tempTree(t, { 'secret.txt': 'secret', 'dir/x.mdx': 'x' })
  const root = await tempTree(t, { 'docs.json': '{}', 'shared/snippet.mdx': 'snippet' })
  await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'))
  await symlink(join(outside, 'dir'), join(root, 'leak-dir'))
  await symlink('shared/snippet.mdx', join(root, 'alias.mdx'))
  await symlink('..', join(root, 'shared', 'loop'))
  const { files, problems } = await readSiteFiles(root)
  assert.deepEqual([...files.keys()], ['alias.mdx', 'docs.json', 'shared/snippet.mdx'])
  assert.deepEqual(problems, [
    'leak-dir: skipped, a symlink pointing outside the docs directory',
    'leak.txt: skipped, a symlink pointing outside the docs directory',
  ])
})

test('a missing docs.json names the folders looked in: the one given, or each candidate', () => {
  const missing = [
    { rule: 'missing-config', message: 'docs.json not found at the root of the docs directory' },
  ]
  assert.deepEqual(siteDirsTried(undefined, '/site'), ['.', 'docs', join('apps', 'docs')])
  assert.match(
    explainMissingConfig(missing, undefined, '/site')[0]!.message,
    /not found in any of \., docs or apps\/docs;/,
  )
  assert.match(explainMissingConfig(missing, 'guide', '/site')[0]!.message, /^docs\.json not found in guide;/)
  const other = [{ rule: 'unknown-key', message: 'x' }]
  assert.deepEqual(explainMissingConfig(other, undefined, '/site'), other)
})
