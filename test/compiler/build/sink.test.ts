import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { renderOne } from '../../../compiler/pool/render-one.js'
import { readFixture, shellSiteDir } from './helpers.js'

const redirectsSiteDir = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'redirects-site')

/** A build through a sink: every file it was handed, in order, failing on a second delivery of one path. */
async function streamed(
  files: ReadonlyMap<string, Uint8Array>,
  options: Omit<Parameters<typeof buildSite>[1], 'onFile'>,
) {
  const delivered = new Map<string, Uint8Array>()
  const order: string[] = []
  const result = await buildSite(files, {
    ...options,
    onFile: async (path, bytes) => {
      assert.ok(!delivered.has(path), `${path} is delivered once`)
      delivered.set(path, bytes)
      order.push(path)
      await new Promise((resolve) => setImmediate(resolve))
    },
  })
  return { result, delivered, order }
}

test('a sink receives every file exactly once, with the bytes a build without one returns', async () => {
  for (const [dir, workers] of [
    [shellSiteDir, 0],
    [shellSiteDir, 2],
    [redirectsSiteDir, 0],
  ] as const) {
    const files = readFixture(dir)
    const collected = await buildSite(files, { mode: 'lenient' })
    assert.equal(collected.ok, true)
    const { result, delivered } = await streamed(files, { mode: 'lenient', workers })
    assert.equal(result.ok, true)
    assert.equal(result.files.size, 0, 'a streamed build hands its files to the sink only')
    assert.deepEqual([...delivered.keys()].sort(), [...collected.files.keys()])
    for (const [path, bytes] of collected.files) assert.deepEqual(delivered.get(path), bytes, path)
    assert.equal(result.contentSecurityPolicy, collected.contentSecurityPolicy)
    assert.deepEqual(result.diagnostics, collected.diagnostics)
  }
})

test('pages reach the sink before the site-wide files that need every page', async () => {
  const { order } = await streamed(readFixture(shellSiteDir), { mode: 'strict' })
  const firstSiteWide = order.indexOf('llms-full.txt')
  assert.ok(firstSiteWide > 0)
  assert.ok(order.indexOf('guide/setup/index.html') < firstSiteWide)
  assert.ok(order.indexOf('guide/setup.md') < firstSiteWide)
})

test('a failed build delivers no file to the sink', async () => {
  const files = readFixture(shellSiteDir)
  files.set('guide/setup.mdx', new TextEncoder().encode('---\ntitle: Setup\n---\n\n[broken](/nowhere)\n'))
  const { result, delivered } = await streamed(files, { mode: 'strict' })
  assert.equal(result.ok, false)
  assert.equal(delivered.size, 0)
})

test('a rebuild after a streamed build still reuses every unchanged page body', async () => {
  const files = readFixture(shellSiteDir)
  const { result: cold } = await streamed(files, { mode: 'strict' })
  const edited = new Map(files)
  const source = new TextDecoder().decode(files.get('guide/setup.mdx'))
  edited.set('guide/setup.mdx', new TextEncoder().encode(`${source}\nOne more line.\n`))
  const { result: rebuild, delivered } = await streamed(edited, { mode: 'strict', cache: cold.cache })
  assert.equal(rebuild.stats.pagesRendered, 1)
  const fresh = await buildSite(edited, { mode: 'strict' })
  for (const [path, bytes] of fresh.files) assert.deepEqual(delivered.get(path), bytes, path)
})

test('a rendered page is plain strings and lists: no syntax tree crosses from a worker', async () => {
  const files = readFixture(shellSiteDir)
  const slugs = new Set(
    [...files.keys()].filter((path) => path.endsWith('.mdx')).map((path) => path.slice(0, -4)),
  )
  const outcome = await renderOne({ file: 'guide/setup.mdx', slug: 'guide/setup' }, files, slugs, 'strict')
  assert.ok(outcome.ok)
  const trees: string[] = []
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return
    if ('type' in value && ('children' in value || 'position' in value)) trees.push(path)
    for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`)
  }
  walk(outcome.page, 'page')
  assert.deepEqual(trees, [])
  assert.equal(typeof outcome.page.html, 'string')
})
