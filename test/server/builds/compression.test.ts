import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { compress, compressionLevels } from '../../../server/builds/compression.js'

/** A page like a real one: a long sidebar repeated on every page, then its own prose. */
function page(index: number): Uint8Array {
  const sidebar = Array.from(
    { length: 400 },
    (_, link) => `<li><a href="../section-${link % 9}/page-${link}/">Page ${link} of the guide</a></li>`,
  ).join('')
  const prose = `<p>Feature ${index} explains configuration, limits and examples in detail.</p>`.repeat(40)
  return new TextEncoder().encode(`<!doctype html><nav><ul>${sidebar}</ul></nav><main>${prose}</main>`)
}

test('a cold build compresses at fast levels, a one-page edit at the best ratio', async (t) => {
  const pages = Array.from({ length: 20 }, (_, index) => page(index))
  const total = pages.reduce((sum, bytes) => sum + bytes.byteLength, 0)
  assert.deepEqual(compressionLevels(total), { brotli: 6, gzip: 6 })
  assert.deepEqual(compressionLevels(pages[0]!.byteLength), { brotli: 11, gzip: 9 })

  for (const [label, levels] of [
    ['cold', compressionLevels(total)],
    ['edit', compressionLevels(0)],
  ] as const) {
    const started = performance.now()
    let compressed = 0
    for (const bytes of pages) {
      const file: { bytes: Uint8Array; br?: Uint8Array; gzip?: Uint8Array } = { bytes }
      await compress(file, levels)
      assert.ok(file.br && file.gzip, 'both variants are kept when smaller')
      assert.deepEqual(new Uint8Array(brotliDecompressSync(file.br)), bytes)
      assert.deepEqual(new Uint8Array(gunzipSync(file.gzip)), bytes)
      compressed += file.br.byteLength
    }
    t.diagnostic(
      `${label} levels (brotli ${levels.brotli}, gzip ${levels.gzip}): ${(performance.now() - started).toFixed(0)} ms for ${(total / 1024).toFixed(0)} KB → brotli ${((compressed / total) * 100).toFixed(1)}%`,
    )
  }
})

test('an output that does not shrink keeps no compressed variant', async () => {
  const noise = new Uint8Array(randomBytes(2048))
  const file: { bytes: Uint8Array; br?: Uint8Array; gzip?: Uint8Array } = { bytes: noise }
  await compress(file, compressionLevels(0))
  assert.equal(file.gzip, undefined)
  assert.equal(file.br, undefined)
})
