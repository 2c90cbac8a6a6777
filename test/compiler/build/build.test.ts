import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { brokenLinks, linksOf, readFixture, shellSiteDir, text } from './helpers.js'

const encode = (value: string) => new TextEncoder().encode(value)

test('the same input builds byte-identical output, in-process and in workers', async () => {
  const files = readFixture(shellSiteDir)
  const first = await buildSite(files, { mode: 'strict' })
  const second = await buildSite(files, { mode: 'strict' })
  const pooled = await buildSite(files, { mode: 'strict', workers: 2 })
  assert.equal(first.ok, true, JSON.stringify(first.diagnostics, null, 2))
  for (const other of [second, pooled]) {
    assert.deepEqual([...other.files.keys()], [...first.files.keys()])
    for (const [path, bytes] of first.files) assert.deepEqual(other.files.get(path), bytes, path)
  }
  assert.doesNotMatch(text(first.files, 'index.html'), /20\d\d-\d\d-\d\dT/, 'no timestamps in HTML')
})

test('every page is written under its slug, and every link, script and stylesheet is relative', async () => {
  const result = await buildSite(readFixture(shellSiteDir), { mode: 'strict' })
  for (const path of [
    'index.html',
    'guide/setup/index.html',
    'guide/deploy/index.html',
    'guide/internals/index.html',
    'guide/secret/index.html',
    'api/overview/index.html',
    'unlisted/index.html',
  ])
    assert.ok(result.files.has(path), `${path} is built`)
  assert.deepEqual(brokenLinks(result.files), [])
  const setup = text(result.files, 'guide/setup/index.html')
  assert.match(setup, /<link rel="stylesheet" href="\.\.\/\.\.\/_assets\/site\.[0-9a-f]{12}\.css">/)
  assert.match(setup, /<script src="\.\.\/\.\.\/_assets\/site\.[0-9a-f]{12}\.js" defer><\/script>/)
  const css = [...result.files.keys()].find((path) => /^_assets\/site\.[0-9a-f]{12}\.css$/.test(path))
  assert.ok(css, 'the stylesheet is emitted under its content hash')
  assert.ok(!result.files.has('snippets/reminder/index.html'), 'snippets are not pages')
})

test('the shell marks the current page, leaves hidden groups out and shows the site chrome', async () => {
  const result = await buildSite(readFixture(shellSiteDir), { mode: 'strict' })
  const setup = text(result.files, 'guide/setup/index.html')
  assert.match(
    setup,
    /<li><a href="\.\.\/\.\.\/guide\/setup\/" aria-current="page">Setup<span class="d-badge d-badge-tag">New<\/span>/,
  )
  assert.doesNotMatch(setup, /Secret page/, 'a hidden group stays out of the sidebar')
  assert.match(
    setup,
    /<details data-group="\d+"><summary><span>Going further<\/span><\/summary>/,
    'a collapsed group is closed',
  )
  assert.match(setup, />How it works<span class="d-badge d-badge-deprecated">/)
  assert.match(setup, /<a class="d-tab" href="\.\.\/\.\.\/api\/overview\/">API reference<\/a>/)
  assert.match(setup, /<a class="d-tab" href="\.\.\/\.\.\/" aria-current="true">Guides<\/a>/)
  // The logo and favicon carry their content's version, so a page never shows the next deployment's.
  assert.match(
    setup,
    /<img class="d-only-light" src="\.\.\/\.\.\/logo\/light\.svg\?v=[0-9a-f]{12}" alt="Acme"/,
  )
  assert.match(setup, /<link rel="icon" href="\.\.\/\.\.\/favicon\.svg\?v=[0-9a-f]{12}">/)
  assert.match(setup, /data-theme="light"/, 'appearance.default is applied before any script runs')
  assert.match(setup, /data-theme-toggle/)
  assert.match(
    setup,
    /rel="next"><span class="d-pagination-hint">Next<\/span><span class="d-pagination-title">Deploy/,
  )
  assert.match(
    setup,
    /rel="prev"><span class="d-pagination-hint">Previous<\/span><span class="d-pagination-title">Welcome to Acme/,
  )
  assert.match(setup, /data-copy-markdown="\.\.\/\.\.\/guide\/setup\.md"/)
  assert.match(setup, /data-assistant="https:\/\/chatgpt\.com\/\?hints=search&amp;q=\{prompt\}"/)
  assert.match(setup, /<a href="#create-a-project">Create a project<\/a>/, 'the table of contents lists h2')
  assert.match(setup, /class="d-toc-depth-3"><a href="#check-the-result">/, 'and h3')
  assert.doesNotMatch(setup, /posthog/, 'no analytics unless configured')
  const secret = text(result.files, 'guide/secret/index.html')
  assert.match(secret, /<meta name="robots" content="noindex">/)
})

test('appearance.strict removes the toggle and analytics loads PostHog with the project key', async () => {
  const files = readFixture(shellSiteDir)
  const config = JSON.parse(text(files, 'docs.json'))
  config.appearance = { default: 'dark', strict: true }
  files.set('docs.json', encode(JSON.stringify(config)))
  const result = await buildSite(files, {
    mode: 'strict',
    analytics: { posthog: { key: 'phc_test123', host: 'https://eu.i.posthog.com' } },
  })
  const index = text(result.files, 'index.html')
  assert.doesNotMatch(index, /data-theme-toggle/)
  assert.match(index, /data-appearance="dark" data-appearance-strict="true" data-theme="dark"/)
  assert.match(index, /var k="phc_test123",h="https:\/\/eu\.i\.posthog\.com"/)
})

test('site-wide outputs: markdown exports, llms.txt, llms-full.txt, robots.txt, 404 and search', async () => {
  const result = await buildSite(readFixture(shellSiteDir), { mode: 'strict' })
  const setupMd = text(result.files, 'guide/setup.md')
  assert.match(setupMd, /^# Setup\n/)
  assert.match(setupMd, /Keep your API token out of version control/, 'snippets are inlined in the export')
  assert.ok(result.files.has('index.md'))
  const llms = text(result.files, 'llms.txt')
  assert.match(llms, /^# Acme Docs\n\n> Everything you need to ship with Acme\.\n/)
  const order = ['index.md', 'guide/setup.md', 'guide/deploy.md', 'guide/internals.md', 'api/overview.md']
  const positions = order.map((path) => llms.indexOf(`](${path})`))
  assert.ok(
    positions.every((at) => at > 0),
    llms,
  )
  assert.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
    'pages in navigation order',
  )
  assert.match(llms, /- \[Setup\]\(guide\/setup\.md\): Prepare a project for its first deployment\./)
  assert.doesNotMatch(llms, /secret|unlisted/i, 'hidden and unlisted pages are left out')
  const full = text(result.files, 'llms-full.txt')
  assert.match(full, /Rollbacks take effect immediately/)
  const robots = text(result.files, 'robots.txt')
  assert.equal(robots, 'User-agent: *\nAllow: /\nDisallow: /guide/secret/\nDisallow: /unlisted/\n')
  const notFound = text(result.files, '404.html')
  assert.match(notFound, /<h1 class="d-title">Page not found<\/h1>/)
  assert.match(notFound, /href="_assets\/site\.[0-9a-f]{12}\.css"/)
  const search = text(result.files, '_search/index.js')
  assert.match(search, /^window\.__docsSearchIndex=\{"pages":\[/)
  const index = JSON.parse(search.slice('window.__docsSearchIndex='.length, -2)) as {
    pages: { u: string; t: string; x: string }[]
  }
  assert.deepEqual(
    index.pages.map((page) => page.u),
    ['', 'guide/setup/', 'guide/deploy/', 'guide/internals/', 'api/overview/'],
  )
  assert.match(index.pages[2]!.x, /Promote an earlier build/)
  for (const asset of ['logo/light.svg', 'logo/dark.svg', 'favicon.svg', 'images/diagram.svg'])
    assert.ok(result.files.has(asset), `${asset} is copied`)
})

test('seo.indexing "all" keeps hidden pages indexable; noindex pages stay out', async () => {
  const files = readFixture(shellSiteDir)
  const config = JSON.parse(text(files, 'docs.json'))
  config.seo = { indexing: 'all' }
  files.set('docs.json', encode(JSON.stringify(config)))
  const result = await buildSite(files, { mode: 'strict' })
  assert.equal(text(result.files, 'robots.txt'), 'User-agent: *\nAllow: /\nDisallow: /guide/secret/\n')
  assert.doesNotMatch(text(result.files, 'unlisted/index.html'), /noindex/)
})

test('a rebuild after a one-page edit renders that page only and makes no highlight call', async () => {
  const files = readFixture(shellSiteDir)
  const cold = await buildSite(files, { mode: 'strict' })
  assert.equal(cold.stats.pagesRendered, cold.stats.pages)
  const unchanged = await buildSite(files, { mode: 'strict', cache: cold.cache })
  assert.equal(unchanged.stats.pagesRendered, 0)
  for (const [path, bytes] of cold.files) assert.deepEqual(unchanged.files.get(path), bytes, path)

  const edited = new Map(files)
  edited.set('guide/setup.mdx', encode(`${text(files, 'guide/setup.mdx')}\nOne more line.\n`))
  const rebuilt = await buildSite(edited, { mode: 'strict', cache: cold.cache })
  assert.equal(rebuilt.stats.pagesRendered, 1)
  assert.equal(rebuilt.stats.pagesReused, rebuilt.stats.pages - 1)
  assert.equal(rebuilt.stats.highlightCalls, 0)
  assert.match(text(rebuilt.files, 'guide/setup/index.html'), /One more line\./)
  assert.deepEqual(rebuilt.files.get('guide/deploy/index.html'), cold.files.get('guide/deploy/index.html'))

  // A snippet edit re-renders exactly the pages that import it.
  const snippet = new Map(edited)
  snippet.set('snippets/reminder.mdx', encode('<Tip>Rotate your API token every month.</Tip>\n'))
  const afterSnippet = await buildSite(snippet, { mode: 'strict', cache: rebuilt.cache })
  assert.equal(afterSnippet.stats.pagesRendered, 1)
  assert.match(text(afterSnippet.files, 'guide/setup/index.html'), /Rotate your API token/)

  // The cache is plain JSON: the server stores it between deployments.
  const roundTripped = JSON.parse(JSON.stringify(afterSnippet.cache))
  const again = await buildSite(snippet, { mode: 'strict', cache: roundTripped })
  assert.equal(again.stats.pagesRendered, 0)
})

test('strict builds fail on a broken link with its place; lenient builds warn and still write it', async () => {
  const files = readFixture(shellSiteDir)
  files.set('guide/deploy.mdx', encode('---\ntitle: Deploy\n---\n\nSee [the missing page](/nowhere).\n'))
  const strict = await buildSite(files, { mode: 'strict' })
  assert.equal(strict.ok, false)
  const problem = strict.diagnostics.find((diagnostic) => diagnostic.file === 'guide/deploy.mdx')
  assert.ok(problem, JSON.stringify(strict.diagnostics))
  assert.equal(problem.severity, 'error')
  assert.equal(problem.line, 5)
  const lenient = await buildSite(files, { mode: 'lenient' })
  assert.equal(lenient.ok, true)
  assert.equal(
    lenient.diagnostics.find((diagnostic) => diagnostic.file === 'guide/deploy.mdx')?.severity,
    'warning',
  )
  assert.ok(lenient.files.has('guide/deploy/index.html'))
})

test('a missing or broken docs.json fails with a diagnostic and no files, never a throw', async () => {
  const files = readFixture(shellSiteDir)
  files.set('docs.json', encode('{ "name": "Acme", '))
  const broken = await buildSite(files, { mode: 'lenient' })
  assert.equal(broken.ok, false)
  assert.equal(broken.files.size, 0)
  assert.equal(broken.diagnostics[0]?.file, 'docs.json')
  files.delete('docs.json')
  const missing = await buildSite(files, { mode: 'lenient' })
  assert.equal(missing.ok, false)
  assert.equal(missing.diagnostics[0]?.rule, 'missing-config')
})

test('a navigation page without a file is an error in strict mode and a warning in lenient mode', async () => {
  const files = readFixture(shellSiteDir)
  files.delete('guide/internals.mdx')
  const strict = await buildSite(files, { mode: 'strict' })
  assert.equal(strict.ok, false)
  assert.ok(
    strict.diagnostics.some((d) => d.rule === 'missing-page' && d.message.includes('guide/internals')),
  )
  const lenient = await buildSite(files, { mode: 'lenient' })
  assert.equal(lenient.ok, true)
  assert.deepEqual(brokenLinks(lenient.files), [], 'the sidebar leaves the missing page out')
})

test('`only` renders the requested pages and skips site-wide outputs', async () => {
  const result = await buildSite(readFixture(shellSiteDir), { mode: 'lenient', only: ['guide/deploy'] })
  assert.equal(result.stats.pagesRendered, 1)
  assert.ok(result.files.has('guide/deploy/index.html'))
  assert.ok(!result.files.has('index.html'))
  assert.ok(!result.files.has('llms.txt'))
  const html = text(result.files, 'guide/deploy/index.html')
  assert.ok(
    linksOf(html).some((link) => link === '../../guide/setup/'),
    'the sidebar still lists every page',
  )
})

test('a site without an index page answers at its root with a link to the first page', async () => {
  const files = readFixture(shellSiteDir)
  const config = JSON.parse(text(files, 'docs.json'))
  config.navigation.tabs[0].groups[0].pages = ['guide/setup']
  files.set('docs.json', encode(JSON.stringify(config)))
  files.delete('index.mdx')
  files.set('guide/setup.mdx', encode('---\ntitle: Setup\n---\n\nHello.\n'))
  const result = await buildSite(files, { mode: 'strict' })
  assert.equal(result.ok, true, JSON.stringify(result.diagnostics))
  assert.match(
    text(result.files, 'index.html'),
    /<meta http-equiv="refresh" content="0; url=guide\/setup\/">/,
  )
})

test('an unknown icon name is one warning per build, however many pages use it', async () => {
  const files = readFixture(shellSiteDir)
  const uses =
    '\n\nShipping <Icon icon="no-such-icon-name" /> and <Icon icon="no-such-icon-name" /> by <Icon icon="rocket-launch" />.\n'
  for (const page of ['index.mdx', 'guide/setup.mdx', 'guide/deploy.mdx'])
    files.set(page, encode(text(files, page) + uses))
  const result = await buildSite(files, { mode: 'lenient' })
  const warnings = result.diagnostics.filter((diagnostic) => /^(unknown|paid)-icon$/.test(diagnostic.rule))
  assert.deepEqual(
    warnings.map((warning) => warning.message),
    [
      'Unknown icon "no-such-icon-name", expected a Font Awesome free icon name or a Lucide one; a neutral circle is shown',
      'Unexpected Font Awesome Pro icon "rocket-launch", expected a free one; the nearest free icon "rocket" is shown',
    ],
  )
  assert.match(text(result.files, 'guide/deploy/index.html'), /Shipping <span class="d-icon"><svg/)
})

test("an author's own llms.txt is served as written, and the build says so; llms-full.txt is still generated", async () => {
  const files = readFixture(shellSiteDir)
  const own = '# Acme\n\nOur own curated list for AI tools.\n'
  files.set('llms.txt', encode(own))
  const result = await buildSite(files, { mode: 'strict' })
  assert.equal(result.ok, true, JSON.stringify(result.diagnostics, null, 2))
  assert.equal(text(result.files, 'llms.txt'), own)
  assert.match(text(result.files, 'llms-full.txt'), /^# Acme Docs/)
  assert.deepEqual(result.notices, [
    'llms.txt: serving your own llms.txt in place of the generated one (delete it to get the generated one)',
  ])
  const generated = await buildSite(readFixture(shellSiteDir), { mode: 'strict' })
  assert.equal(generated.notices, undefined)
})
