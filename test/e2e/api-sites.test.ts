/**
 * A site with an API reference, pushed through `docsctl push` to a real `docs-server` and read back:
 * every file the live site serves is the one `docsctl build` writes, generated operation pages and
 * hand-written `openapi:` pages included, and a change to a spec or to docs.json's `api` settings
 * renders the pages that use it again. The corpus sites with API pages: corpus-api-sites.test.ts.
 */
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import { buildBothWays, copySiteWithout } from '../cli/helpers/both-ways.js'
import { type DocsServer, startDocsServer } from '../cli/helpers/docs-server.js'

let server: DocsServer
let work: string

before(async () => {
  server = await startDocsServer()
  work = await mkdtemp(join(tmpdir(), 'api-sites-'))
})

after(async () => {
  await server?.stop()
  await rm(work, { recursive: true, force: true })
})

const copySite = (from: string, name: string, drop: string[] = []): Promise<string> =>
  copySiteWithout(from, join(work, name), drop)

const pushStats = (stdout: string, stderr: string) => `${stdout}\n${stderr}`

test('the API reference fixture: the live site serves what docsctl build writes, operation pages included', async () => {
  const site = await copySite(fromPackageRoot('fixtures', 'api-reference'), 'fixture')
  const result = await buildBothWays(server, site, { slug: 'plants', outDir: join(work, 'out-fixture') })
  assert.equal(result.push.code, 0, pushStats(result.push.stdout, result.push.stderr))
  assert.doesNotMatch(result.push.stderr, /not valid UTF-8/)
  assert.deepEqual(result.differing, [])
  const operation = await (await server.fetchSite('plants', '/api-reference/plants/list-plants/')).text()
  assert.match(operation, /List plants/)
  assert.match(operation, /\/plants/)
  // The hand-written `openapi:` page shows its operation above the author's own text.
  const handWritten = await (await server.fetchSite('plants', '/reference/get-plant/')).text()
  assert.match(handWritten, /\/plants\/\{plantId\}/)
  assert.match(handWritten, /Plants removed from the store answer 404/)
})

test('a change to a spec or to docs.json api settings renders the openapi: pages that use them again', async () => {
  const site = await copySite(fromPackageRoot('fixtures', 'api-reference'), 'edits')
  const out = join(work, 'out-edits')
  const first = await buildBothWays(server, site, { slug: 'edits', outDir: out })
  assert.equal(first.push.code, 0, first.push.stderr)
  const page = async () => (await server.fetchSite('edits', '/reference/get-plant/')).text()
  assert.match(await page(), /class="d-try-it"/)

  // The playground turned off in docs.json: the hand-written page loses its "Try it" panel.
  const configPath = join(site, 'docs.json')
  const config = JSON.parse(await readFile(configPath, 'utf8')) as { api: Record<string, unknown> }
  config.api.playground = { display: 'none' }
  await writeFile(configPath, JSON.stringify(config, null, 2))
  const settings = await buildBothWays(server, site, {
    slug: 'edits',
    outDir: out,
    deployKey: first.deployKey,
  })
  assert.equal(settings.push.code, 0, settings.push.stderr)
  assert.deepEqual(settings.differing, [])
  assert.doesNotMatch(await page(), /class="d-try-it"/)

  // A new description of the operation in the spec reaches the page on the next push.
  const specPath = join(site, 'openapi', 'plants.yaml')
  const spec = await readFile(specPath, 'utf8')
  const operation = /\n {2}\/plants\/\{plantId\}:\n(?: {4}.*\n)*? {4}get:\n/.exec(spec)
  assert.ok(operation, 'the fixture has GET /plants/{plantId}')
  const at = operation.index + operation[0].length
  await writeFile(
    specPath,
    `${spec.slice(0, at)}      description: Looks one plant up by the id the store gave it.\n${spec.slice(at)}`,
  )
  const edited = await buildBothWays(server, site, { slug: 'edits', outDir: out, deployKey: first.deployKey })
  assert.equal(edited.push.code, 0, edited.push.stderr)
  assert.deepEqual(edited.differing, [])
  assert.match(await page(), /Looks one plant up by the id the store gave it/)
})
