/**
 * The corpus sites with API pages (mem0's and pipecat's `openapi:` pages), pushed through `docsctl push`
 * to a real `docs-server`: every file the live site serves is the one `docsctl build` writes, and an
 * operation page read back shows its operation.
 */
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { buildBothWays, copySiteWithout } from '../cli/helpers/both-ways.js'
import { type DocsServer, startDocsServer } from '../cli/helpers/docs-server.js'
import { corpusRoot } from '../corpus.js'

let server: DocsServer
let work: string

before(async () => {
  server = await startDocsServer()
  work = await mkdtemp(join(tmpdir(), 'corpus-api-sites-'))
})

after(async () => {
  await server?.stop()
  await rm(work, { recursive: true, force: true })
})

// stagehand's spec is a URL this machine cannot fetch, so it builds without API pages; cline, rallly
// and x402 have none.
// What strict validation asks of each before a push: docs.json keys of another theme removed, and pages
// whose components strict validation refuses (a snippet missing from the repository, components in
// prop values) rewritten.
for (const [name, drop, rewrite, operationPage] of [
  ['mem0', ['theme', 'colors', 'background'], [], 'api-reference/webhook/delete-webhook'],
  [
    'pipecat',
    ['theme', 'styling', 'colors'],
    [
      'pipecat/examples/overview.mdx',
      'pipecat/examples/recipes.mdx',
      'api-reference/client/js/client-methods.mdx',
      'api-reference/client/js/callbacks.mdx',
    ],
    'api-reference/pipecat-cloud/rest-reference/endpoint/start',
  ],
] as const) {
  test(`${name}, pushed: every file the live site serves is the one docsctl build writes`, async () => {
    const site = await copySiteWithout(join(corpusRoot, name), join(work, name), drop)
    for (const page of rewrite) {
      const text = await readFile(join(site, page), 'utf8')
      const frontMatter = /^---\n[\s\S]*?\n---\n/.exec(text)?.[0] ?? ''
      await writeFile(join(site, page), `${frontMatter}\nRewritten for strict validation.\n`)
    }
    const result = await buildBothWays(server, site, {
      slug: `${name}-docs`,
      outDir: join(work, `out-${name}`),
    })
    assert.equal(result.push.code, 0, `${result.push.stdout}\n${result.push.stderr}`)
    assert.deepEqual(result.differing, [])
    // An `openapi:` page read back from the live site shows its operation's method and path.
    const html = await (await server.fetchSite(`${name}-docs`, `/${operationPage}/`)).text()
    assert.match(html, /class="d-api-endpoint" data-method="(get|post|put|patch|delete)"/)
  })
}
