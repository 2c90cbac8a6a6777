/**
 * fixtures/api-reference: an OpenAPI 3.1 YAML spec split across two files (with a circular schema),
 * a 3.0 JSON spec, a broken one and an AsyncAPI 2.6 document, used every way docs.json and front matter allow. The body HTML
 * of each API page is pinned in expected/<slug>.snap.html (regenerate on purpose with UPDATE=1); the pages
 * reach the sidebar (with method badges), search, llms.txt, `.md` exports and the sitemap.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { buildSite } from '../../../compiler/build.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'
import { renderSitemap } from '../../../server/sites/sitemap.js'
import { brokenLinks, readFixture, text } from '../build/helpers.js'

const API_PAGES = [
  'api-reference/plants/list-plants',
  'api-reference/plants/add-a-plant',
  'api-reference/admin/remove-a-plant',
  'api-reference/list-things',
  'orders-api/orders/get-order',
  'reference/get-plant',
  'reference/plant-schema',
  'reference/hand-written',
  'asyncapi/plant-watered',
]

/**
 * The page body, one tag a line: what the API stage made, without the shell around it. Highlighted
 * code is pinned as its text: shiki's token colours are the highlighter's business, not this stage's.
 */
const body = (html: string): string => {
  const match = /<div class="d-prose">[\s\S]*?(?=<nav class="d-pagination"|<\/article>)/.exec(html)
  assert.ok(match, 'the page has a body')
  const code = match[0].replace(
    /<pre class="shiki[^>]*>([\s\S]*?)<\/pre>/g,
    (_, inner: string) => `<pre>${inner.replace(/<[^>]+>/g, '')}</pre>`,
  )
  return `${code.replace(/></g, '>\n<')}\n`
}

test('API pages from the fixture specs render as pinned, everywhere a page goes', async (t) => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  const result = await buildSite(files, { mode: 'lenient' })
  t.diagnostic(`${result.stats.pages} pages in ${result.stats.durationMs.toFixed(0)} ms`)
  assert.deepEqual(
    result.diagnostics.map((diagnostic) => `${diagnostic.rule} ${formatDiagnostic(diagnostic)}`),
    [
      'openapi-ref openapi/broken.yaml paths["/things"].get.responses[200].content["application/json"].schema: Unresolved $ref: Missing $ref pointer "#/components/schemas/Missing". Token "components" does not exist.',
    ],
  )
  assert.equal(result.ok, true, 'a broken spec is a warning, the site still builds')
  assert.deepEqual(brokenLinks(result.files), [])

  for (const slug of API_PAGES) {
    const expectedPath = fromPackageRoot('test', 'compiler', 'openapi', 'expected', `${slug}.snap.html`)
    const actual = body(text(result.files, `${slug}/index.html`))
    if (process.env.UPDATE === '1') {
      mkdirSync(dirname(expectedPath), { recursive: true })
      writeFileSync(expectedPath, actual)
    }
    assert.equal(actual, readFileSync(expectedPath, 'utf8'), `${slug}: HTML differs from ${expectedPath}`)
  }

  const listPlants = text(result.files, 'api-reference/plants/list-plants/index.html')
  // The sidebar: method badges beside operation pages, the front-matter page's too.
  assert.match(listPlants, /<span class="d-method d-method-get">GET<\/span>List plants/)
  assert.match(listPlants, /<span class="d-method d-method-delete">DEL<\/span>Remove a plant/)
  assert.match(listPlants, /<span class="d-method d-method-get">GET<\/span>Get a plant/)
  assert.match(
    listPlants,
    /<script src="[./]*_assets\/api\.[0-9a-f]{12}\.js" defer><\/script>/,
    'the Try it script',
  )
  assert.doesNotMatch(text(result.files, 'index.html'), /_assets\/api\./, 'only API pages load it')
  assert.match(
    result.contentSecurityPolicy,
    /connect-src 'self' http:\/\/127\.0\.0\.1:\* http:\/\/localhost:\* https: https:\/\/api\.plants\.example https:\/\/orders\.example/,
    'the spec without servers lets the reader send to a base URL of their own',
  )
  // Its Try it panel asks for that base URL.
  assert.match(
    text(result.files, 'api-reference/list-things/index.html'),
    /class="d-try-it" data-playground=/,
  )

  // Search, llms.txt, the Markdown export and the sitemap list them like any page.
  const search = text(result.files, '_search/index.js')
  for (const title of ['List plants', 'Add a plant', 'getOrder', 'Get a plant'])
    assert.ok(search.includes(title), title)
  const llms = text(result.files, 'llms.txt')
  assert.match(llms, /\[List plants\]\(api-reference\/plants\/list-plants\.md\)/)
  const markdown = text(result.files, 'api-reference/plants/list-plants.md')
  assert.match(markdown, /\*\*limit\*\* `integer`/)
  assert.match(markdown, /curl --request GET/)
  assert.doesNotMatch(markdown, /"X-Request-Id": /, 'examples hold only required parameters by default')
  const sitemap = renderSitemap([...result.files.keys()], 'https://docs.example')
  for (const slug of API_PAGES) assert.ok(sitemap.includes(`https://docs.example/${slug}/`), slug)
})

test('api.playground display none leaves out Try it; hideApiMarker drops the badge; asyncapi: pages', async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  const config = JSON.parse(new TextDecoder().decode(files.get('docs.json')))
  config.api.playground = { display: 'none', proxy: true }
  config.api.examples = { languages: ['python'], defaults: 'all' }
  files.set('docs.json', new TextEncoder().encode(JSON.stringify(config)))
  files.set(
    'reference/get-plant.mdx',
    new TextEncoder().encode('---\nopenapi: "GET /plants/{plantId}"\nhideApiMarker: true\n---\n'),
  )
  files.set(
    'reference/events.mdx',
    new TextEncoder().encode('---\nasyncapi: plant/watered\n---\n\nSee also the REST API.\n'),
  )
  const result = await buildSite(files, { mode: 'lenient' })
  const events = text(result.files, 'reference/events/index.html')
  assert.match(events, /<h1 class="d-title">plant\/watered<\/h1>/, 'asyncapi: front matter finds the channel')
  assert.match(events, /PlantWatered[\s\S]*See also the REST API\./)
  assert.ok(
    result.diagnostics.some((diagnostic) => diagnostic.rule === 'openapi-proxy'),
    'proxy: true is warned about',
  )
  const page = text(result.files, 'api-reference/plants/list-plants/index.html')
  assert.doesNotMatch(page, /d-try-it|_assets\/api\./)
  assert.ok(![...result.files.keys()].some((path) => /^_assets\/api\./.test(path)))
  assert.match(page, /data-language="python"/)
  assert.doesNotMatch(page, /data-language="go"/)
  assert.match(
    text(result.files, 'api-reference/plants/list-plants.md'),
    /"X-Request-Id": "3c90c3cc/,
    'defaults: all puts optional headers in the example',
  )
  assert.doesNotMatch(page, /d-method-get">GET<\/span>Get a plant/)
})

test("generated pages sit at the platform's <directory>/<tag>/<operation>, and earlier URLs redirect there", async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  const result = await buildSite(files, { mode: 'lenient' })
  assert.deepEqual(
    text(result.files, '_redirects')
      .split('\n')
      .filter((line) => /-api\/|api-reference\//.test(line)),
    [
      '/api-reference/list-plants /api-reference/plants/list-plants 308!',
      '/api-reference/add-a-plant /api-reference/plants/add-a-plant 308!',
      '/api-reference/remove-a-plant /api-reference/admin/remove-a-plant 308!',
      '/orders-api/get-order /orders-api/orders/get-order 308!',
    ],
  )
  // An untagged operation stays in the directory itself.
  assert.match(text(result.files, 'api-reference/list-things/index.html'), /class="d-api-endpoint"/)
  assert.match(text(result.files, 'api-reference/list-plants/index.html'), /<title>Moved<\/title>/)
})

test('a link to an earlier operation URL is no broken link: it goes to where the page moved', async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  files.set(
    'linking.mdx',
    new TextEncoder().encode(
      '---\ntitle: Linking\n---\n\nSee [list plants](/api-reference/list-plants#response).\n',
    ),
  )
  const result = await buildSite(files, { mode: 'lenient' })
  assert.deepEqual(
    result.diagnostics.filter((diagnostic) => diagnostic.file === 'linking.mdx'),
    [],
  )
  assert.match(
    text(result.files, 'linking/index.html'),
    /href="\.\.\/api-reference\/plants\/list-plants\/#response"/,
  )
  assert.equal(result.files.has('_openapi/redirects.json'), false, 'the generated rules are not published')
})

test('a problem on a generated page names the spec and the operation, not the generated file', async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'api-reference'))
  const spec = text(files, 'openapi/plants.yaml').replace(
    'Returns the plants in the store, **newest first**.',
    'Returns the plants in the store; see [the care guide](/care-guide).',
  )
  files.set('openapi/plants.yaml', new TextEncoder().encode(spec))
  const result = await buildSite(files, { mode: 'strict' })
  const cited = result.diagnostics.filter((diagnostic) => diagnostic.rule === 'broken-link')
  assert.deepEqual(cited.map(formatDiagnostic), [
    cited[0] && `openapi/plants.yaml GET /plants: ${cited[0].message}`,
  ])
  assert.ok(!result.diagnostics.some((diagnostic) => diagnostic.file.startsWith('api-reference/')))
})
