import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import type { SiteFiles } from '../../../compiler/files.js'
import { readFixture } from './helpers.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Every output path whose bytes differ between two builds, or that only one of them wrote. */
function differences(a: SiteFiles, b: SiteFiles): string[] {
  const paths = new Set([...a.keys(), ...b.keys()])
  return [...paths].filter((path) => {
    const left = a.get(path)
    const right = b.get(path)
    return !left || !right || Buffer.compare(Buffer.from(left), Buffer.from(right)) !== 0
  })
}

/** `path` with `from` replaced by `to` (which must be there). */
function edit(files: Map<string, Uint8Array>, path: string, from: string | RegExp, to: string) {
  const source = decoder.decode(files.get(path))
  const changed = source.replace(from, to)
  assert.notEqual(changed, source, `${path} holds ${from}`)
  const next = new Map(files)
  next.set(path, encoder.encode(changed))
  return next
}

test('a rebuild with the previous cache writes exactly what a cold build of the same sources writes', async (t) => {
  const files = readFixture(fromPackageRoot('fixtures', 'sites', 'full'))
  const cold = await buildSite(files, { mode: 'lenient' })
  assert.ok(cold.ok)
  const pages = [...files.keys()].filter((path) => path.endsWith('.mdx')).sort()
  const page = pages[0]!
  const cases: [string, Map<string, Uint8Array>][] = [
    ['one page body edited', edit(files, page, /\n*$/, '\n\nOne edited line with <span>HTML</span>.\n')],
    [
      'a page title edited (every sidebar changes)',
      edit(files, page, /^title:.*$/m, 'title: A renamed page'),
    ],
    [
      'docs.json edited (every shell changes)',
      edit(files, 'docs.json', /"name":\s*"[^"]*"/, '"name": "Renamed Docs"'),
    ],
  ]
  for (const [label, edited] of cases) {
    const started = performance.now()
    const rebuilt = await buildSite(edited, { mode: 'lenient', cache: cold.cache })
    const rebuildMs = performance.now() - started
    const fresh = await buildSite(edited, { mode: 'lenient' })
    assert.ok(rebuilt.stats.pagesReused > 0, `${label}: the rebuild reused pages`)
    assert.deepEqual(differences(rebuilt.files, fresh.files), [], `${label}: rebuild = cold build`)
    assert.ok(differences(rebuilt.files, cold.files).length > 0, `${label}: the edit shows`)
    t.diagnostic(`${label}: rebuilt in ${rebuildMs.toFixed(0)} ms, ${rebuilt.stats.pagesRendered} rendered`)
  }
  // A chain of rebuilds, each handed the previous one's cache, stays equal to cold builds too.
  const first = edit(files, page, /\n*$/, '\n\nFirst edit.\n')
  const second = edit(first, pages[1]!, /\n*$/, '\n\nSecond edit.\n')
  const afterFirst = await buildSite(first, { mode: 'lenient', cache: cold.cache })
  const afterSecond = await buildSite(second, { mode: 'lenient', cache: afterFirst.cache })
  const freshSecond = await buildSite(second, { mode: 'lenient' })
  assert.deepEqual(differences(afterSecond.files, freshSecond.files), [])
})

test('an API reference site rebuilds to the same files as a cold build after a page edit', async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  const cold = await buildSite(files, { mode: 'lenient' })
  const edited = edit(files, 'index.mdx', /\n*$/, '\n\nOne edited line.\n')
  const rebuilt = await buildSite(edited, { mode: 'lenient', cache: cold.cache })
  const fresh = await buildSite(edited, { mode: 'lenient' })
  assert.ok(rebuilt.stats.pagesReused > 0)
  assert.deepEqual(differences(rebuilt.files, fresh.files), [])
  assert.equal(rebuilt.contentSecurityPolicy, fresh.contentSecurityPolicy)
})
