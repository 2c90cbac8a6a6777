/**
 * Same input, same output, whatever the load (ARCHITECTURE decision 11): each corpus site's shared build
 * (test/corpus-build.ts, made under whatever load the run had) and a build while a busy thread spins on
 * every core give byte-identical files and diagnostics. A limit that counted wall time (the sandbox's, a
 * page's) would cut pages only under load. The slow tier (`npm run test:slow`, run by CI after `npm test`)
 * builds the two smallest sites: the hog takes every core from whatever runs beside it, so it stays out of
 * `npm test`. `npm run test:determinism` builds all six (minutes: the large ones take several times longer
 * under the hog).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildSite, defaultWorkers } from '../../compiler/build.js'
import { formatDiagnostic } from '../../compiler/diagnostics.js'
import { readSiteFiles } from '../../lib/site-dir.js'
import { corpusRoot, corpusSites } from '../corpus.js'
import { builtCorpusSite, type CorpusSite } from '../corpus-build.js'
import { startCpuHog } from '../cpu-hog.js'

async function build(site: CorpusSite) {
  const { files } = await readSiteFiles(join(corpusRoot, site))
  const result = await buildSite(files, { mode: 'lenient', workers: defaultWorkers() })
  return { files: result.files, diagnostics: result.diagnostics.map(formatDiagnostic) }
}

/** The run's shared build, made whenever its first reader asked for it (test/corpus-build.ts). */
async function shared(site: CorpusSite) {
  const { result } = await builtCorpusSite(site)
  return { files: result.files, diagnostics: result.diagnostics.map(formatDiagnostic) }
}

const sites: readonly CorpusSite[] =
  process.env.DOCS_DETERMINISM === 'full' ? corpusSites : ['x402', 'rallly']

test('corpus sites build byte for byte the same on an idle machine and under a CPU hog', async (t) => {
  for (const site of sites) {
    const idle = await shared(site)
    const hog = await startCpuHog()
    let busy: Awaited<ReturnType<typeof build>>
    try {
      busy = await build(site)
    } finally {
      await hog.stop()
    }
    assert.deepEqual(busy.diagnostics, idle.diagnostics, `${site}: the same diagnostics`)
    assert.deepEqual([...busy.files.keys()].sort(), [...idle.files.keys()].sort(), `${site}: the same files`)
    const differing = [...idle.files].filter(
      ([path, bytes]) => !Buffer.from(bytes).equals(busy.files.get(path)!),
    )
    assert.deepEqual(
      differing.map(([path]) => path),
      [],
      `${site}: the same bytes`,
    )
    t.diagnostic(`${site}: ${idle.files.size} files, ${idle.diagnostics.length} diagnostics, identical`)
  }
})
