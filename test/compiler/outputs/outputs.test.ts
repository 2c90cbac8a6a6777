import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderLlmsFullTxt, renderLlmsTxt } from '../../../compiler/outputs/llms.js'
import { renderMarkdownExport } from '../../../compiler/outputs/markdown-export.js'
import { renderRobotsTxt } from '../../../compiler/outputs/robots.js'
import { renderSearchIndex } from '../../../compiler/outputs/search-index.js'
import { collectStaticAssets } from '../../../compiler/outputs/static-assets.js'

const config = { name: 'Acme', description: 'Ship faster.', navigation: {} }

test('llms.txt lists pages by section with links to their Markdown and their descriptions', () => {
  const llms = renderLlmsTxt(config, [
    { slug: 'index', title: 'Home', markdown: '# Home', section: 'Start' },
    { slug: 'guide/setup', title: 'Setup', description: 'Prepare.', markdown: '# Setup', section: 'Start' },
    { slug: 'api/auth', title: 'Auth', markdown: '# Auth', section: 'API' },
  ])
  assert.equal(
    llms,
    '# Acme\n\n> Ship faster.\n\n## Start\n\n- [Home](index.md)\n- [Setup](guide/setup.md): Prepare.\n\n## API\n\n- [Auth](api/auth.md)\n',
  )
  const full = renderLlmsFullTxt(config, [{ slug: 'index', title: 'Home', markdown: '# Home\n\nHello.\n' }])
  assert.equal(full, '# Acme\n\n> Ship faster.\n\n---\nsource: index.md\n---\n\n# Home\n\nHello.\n')
})

test('a Markdown export starts with the title unless the page already does', () => {
  assert.equal(
    renderMarkdownExport({ title: 'Setup', description: 'Prepare.', markdown: 'Body.\n' }),
    '# Setup\n\n> Prepare.\n\nBody.\n',
  )
  assert.equal(
    renderMarkdownExport({ title: 'Setup', markdown: '# Own title\n\nBody.' }),
    '# Own title\n\nBody.\n',
  )
})

test('robots.txt disallows pages kept out of search engines, in a stable order', () => {
  assert.equal(renderRobotsTxt([]), 'User-agent: *\nAllow: /\n')
  assert.equal(
    renderRobotsTxt(['z/page', 'a/page']),
    'User-agent: *\nAllow: /\nDisallow: /a/page/\nDisallow: /z/page/\n',
  )
})

test('the search index is a script that cannot close its own element and caps page text', () => {
  const bytes = renderSearchIndex([
    { url: 'a/', title: 'A </script><script>', headings: ['One'], text: `${'word '.repeat(2000)}tail` },
  ])
  const script = new TextDecoder().decode(bytes)
  assert.doesNotMatch(script, /<\/script>/)
  const index = JSON.parse(script.slice('window.__docsSearchIndex='.length, -2)) as {
    pages: { t: string; x: string }[]
  }
  assert.equal(index.pages[0]!.t, 'A </script><script>')
  assert.equal(index.pages[0]!.x.length, 3000)
})

test('static assets: referenced files, logo and favicon, and the public folder in a full build; never sources', () => {
  const bytes = new Uint8Array([1])
  const files = new Map([
    ['docs.json', bytes],
    ['index.mdx', bytes],
    ['logo.svg', bytes],
    ['images/a.png', bytes],
    ['data/report.csv', bytes],
    ['scripts/tool.js', bytes],
    ['public/report.pdf', bytes],
    ['public/page.mdx', bytes],
  ])
  const full = collectStaticAssets(files, { ...config, logo: '/logo.svg' }, new Set(['images/a.png']), true)
  assert.deepEqual([...full.keys()].sort(), ['images/a.png', 'logo.svg', 'public/report.pdf'])
  const only = collectStaticAssets(files, config, new Set(['images/a.png']), false)
  assert.deepEqual([...only.keys()], ['images/a.png'])
})

test('static assets: an uploaded SVG, XML or HTML file that nothing references is not published', () => {
  const bytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')
  const files = new Map([
    ['images/evil.svg', bytes],
    ['feed.xml', bytes],
    ['landing.html', bytes],
    ['images/used.svg', bytes],
  ])
  const copied = collectStaticAssets(files, config, new Set(['images/used.svg']), true)
  assert.deepEqual([...copied.keys()], ['images/used.svg'])
})
