/** Packing a site into shared memory for render threads, and reading it back as views. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  packFiles,
  readSiteIndex,
  sharedSite,
  shareSite,
  siteChanges,
  siteFiles,
  unpackFiles,
} from '../../../compiler/pool/shared-files.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

test('files come back byte for byte from one SharedArrayBuffer, in their order', () => {
  const files = new Map([
    ['index.mdx', encoder.encode('# Hello')],
    ['empty.md', new Uint8Array()],
    ['images/logo.png', new Uint8Array([137, 80, 78, 71])],
  ])
  const { buffer, layout } = packFiles(files)
  assert.ok(buffer instanceof SharedArrayBuffer)
  const unpacked = unpackFiles(buffer, layout)
  assert.deepEqual([...unpacked.keys()], [...files.keys()])
  for (const [path, bytes] of files) assert.deepEqual([...unpacked.get(path)!], [...bytes])
})

test('render threads get every byte of a site: pages version its media by their bytes', () => {
  const files = new Map([
    ['index.mdx', encoder.encode('![Logo](/images/logo.png)')],
    ['snippets/note.mdx', encoder.encode('A note')],
    ['openapi.yaml', encoder.encode('openapi: 3.1.0')],
    ['images/logo.svg', encoder.encode('<svg/>')],
    ['images/logo.png', new Uint8Array(1000).fill(7)],
    ['images/Shot.JPEG', new Uint8Array(1000).fill(7)],
    ['videos/demo.mp4', new Uint8Array(5000).fill(7)],
    ['fonts/brand.woff2', new Uint8Array(500).fill(7)],
  ])
  const site = shareSite(files, new Set(['index']), 'lenient')
  const unpacked = unpackFiles(site.files, readSiteIndex(site).layout)
  assert.deepEqual([...unpacked.keys()], [...files.keys()], 'every file still exists')
  for (const [path, bytes] of files) assert.deepEqual([...unpacked.get(path)!], [...bytes], path)
})

test('a site packed before its build sees the pages the build made or rewrote, and not those it dropped', () => {
  const uploaded = new Map([
    ['index.mdx', encoder.encode('# Hello')],
    ['reference/get-plant.mdx', encoder.encode('---\nopenapi: GET /plants\n---\n')],
    ['_openapi/fragments/x.json', encoder.encode('{}')],
  ])
  const { buffer, layout } = packFiles(uploaded)
  // What the API stage hands on: the index untouched (the same bytes), one page rewritten, one made, one dropped.
  const built = new Map([
    ['index.mdx', uploaded.get('index.mdx')!],
    ['reference/get-plant.mdx', encoder.encode('---\nopenapi: GET /plants\n---\n<ApiEndpoint />')],
    ['api-reference/list-plants.mdx', encoder.encode('# List plants')],
  ])
  const changes = siteChanges(uploaded, built)
  assert.deepEqual(
    changes.layout.map(([path]) => path),
    ['reference/get-plant.mdx', 'api-reference/list-plants.mdx'],
    'only what changed is packed again',
  )
  assert.deepEqual(changes.removed, ['_openapi/fragments/x.json'])
  const site = sharedSite(buffer, layout, ['index'], 'lenient', changes)
  const files = siteFiles(site, readSiteIndex(site))
  assert.deepEqual([...files.keys()].sort(), [...built.keys()].sort())
  for (const [path, bytes] of built)
    assert.equal(decoder.decode(files.get(path)), decoder.decode(bytes), path)
})
