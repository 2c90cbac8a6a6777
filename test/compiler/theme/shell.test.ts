import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { renderAnalytics } from '../../../compiler/theme/head.js'
import { iconSvg } from '../../../compiler/theme/icons.js'
import { readFixture, shellSiteDir, text } from '../build/helpers.js'

const encode = (value: string) => new TextEncoder().encode(value)

async function buildWith(change: (config: Record<string, unknown>) => void) {
  const files = readFixture(shellSiteDir)
  const config = JSON.parse(text(files, 'docs.json')) as Record<string, unknown>
  change(config)
  files.set('docs.json', encode(JSON.stringify(config)))
  return buildSite(files, { mode: 'strict' })
}

test('version and language dropdowns work without JavaScript and link relative to the page', async () => {
  const result = await buildWith((config) => {
    const navigation = config.navigation as Record<string, unknown>
    navigation.versions = [
      { label: 'v2', url: '/' },
      { label: 'v1', url: 'https://v1.example.com' },
    ]
    navigation.languages = [
      { label: 'English', url: '/', locale: 'en' },
      { label: 'Français', url: '/fr', locale: 'fr' },
    ]
  })
  assert.equal(result.ok, true, JSON.stringify(result.diagnostics))
  const setup = text(result.files, 'guide/setup/index.html')
  assert.match(setup, /<details class="d-dropdown"><summary aria-label="Version: v2">v2<\/summary>/)
  assert.match(
    setup,
    /<a href="https:\/\/v1\.example\.com" target="_blank" rel="noopener noreferrer">v1<\/a>/,
  )
  assert.match(setup, /<summary aria-label="Language: English">English<\/summary>/)
  assert.match(setup, /<a href="\.\.\/\.\.\/fr\/">Français<\/a>/)
})

test('contextual.display "toc" moves the page actions into the table of contents; options pick the actions', async () => {
  const result = await buildWith((config) => {
    config.contextual = { display: 'toc', options: ['view', 'perplexity'] }
  })
  const setup = text(result.files, 'guide/setup/index.html')
  const toc = setup.slice(setup.indexOf('<aside class="d-toc"'))
  assert.match(toc, /<div class="d-contextual"/)
  assert.doesNotMatch(setup.slice(0, setup.indexOf('<aside class="d-toc"')), /d-contextual"/)
  assert.doesNotMatch(setup, /Copy page|Open in ChatGPT/)
  assert.match(toc, /Open in Perplexity/)
  assert.match(toc, /<a href="\.\.\/\.\.\/guide\/setup\.md">View as Markdown<\/a>/)
})

test('the MCP actions render while the site has an MCP server; mcp.enabled false drops them and _mcp/pages.json', async () => {
  const mcpOptions = ['mcp', 'add-mcp', 'cursor', 'vscode', 'devin-mcp'] as const
  const on = await buildWith((config) => {
    config.contextual = { options: ['view', ...mcpOptions] }
  })
  const setup = text(on.files, 'guide/setup/index.html')
  assert.deepEqual(
    [...setup.matchAll(/data-mcp-action="([a-z-]+)"/g)].map((match) => match[1]),
    ['copy-url', 'copy-add-mcp', 'cursor', 'vscode', 'copy-url'],
  )
  assert.ok(on.files.has('_mcp/pages.json'))
  const off = await buildWith((config) => {
    config.contextual = { options: ['view', ...mcpOptions] }
    config.mcp = { enabled: false }
  })
  assert.doesNotMatch(text(off.files, 'guide/setup/index.html'), /data-mcp-action/)
  assert.match(text(off.files, 'guide/setup/index.html'), /View as Markdown/)
  assert.equal(off.files.has('_mcp/pages.json'), false)
})

test('pages ask "Was this page helpful?" unless feedback.thumbsRating is false; the 404 page never does', async () => {
  const asked = await buildWith(() => {})
  assert.match(text(asked.files, 'guide/setup/index.html'), /<form class="d-feedback" data-feedback hidden>/)
  assert.doesNotMatch(text(asked.files, '404.html'), /data-feedback/)
  const off = await buildWith((config) => {
    config.feedback = { thumbsRating: false }
  })
  assert.equal(off.ok, true, JSON.stringify(off.diagnostics))
  assert.deepEqual(off.diagnostics, asked.diagnostics)
  for (const [path, bytes] of off.files)
    if (path.endsWith('.html')) assert.doesNotMatch(new TextDecoder().decode(bytes), /data-feedback/, path)
})

test('page modes: wide drops the table of contents, custom drops sidebar and page header, center drops the sidebar', async () => {
  const files = readFixture(shellSiteDir)
  const page = (mode: string) =>
    encode(`---\ntitle: ${mode} page\nmode: ${mode}\n---\n\n## Section\n\nBody.\n`)
  files.set('guide/deploy.mdx', page('wide'))
  files.set('guide/internals.mdx', page('custom'))
  files.set('api/overview.mdx', page('center'))
  const result = await buildSite(files, { mode: 'strict' })
  const wide = text(result.files, 'guide/deploy/index.html')
  assert.match(wide, /<body class="d-mode-wide d-has-sidebar">/)
  assert.doesNotMatch(wide, /class="d-toc"/)
  const custom = text(result.files, 'guide/internals/index.html')
  assert.match(custom, /<body class="d-mode-custom">/)
  assert.doesNotMatch(custom, /d-sidebar"|d-page-header|d-pagination"/)
  const center = text(result.files, 'api/overview/index.html')
  assert.match(center, /<body class="d-mode-center">/)
})

test('hideFooterPagination removes previous/next; a favicon pair switches with the colour scheme', async () => {
  const files = readFixture(shellSiteDir)
  files.set('guide/deploy.mdx', encode('---\ntitle: Deploy\nhideFooterPagination: true\n---\n\nBody.\n'))
  const config = JSON.parse(text(files, 'docs.json'))
  config.favicon = { light: '/logo/light.svg', dark: '/logo/dark.svg' }
  files.set('docs.json', encode(JSON.stringify(config)))
  const result = await buildSite(files, { mode: 'strict' })
  const deploy = text(result.files, 'guide/deploy/index.html')
  assert.doesNotMatch(deploy, /class="d-pagination"/)
  assert.match(
    deploy,
    /<link rel="icon" href="\.\.\/\.\.\/logo\/light\.svg\?v=[0-9a-f]{12}" media="\(prefers-color-scheme: light\)"><link rel="icon" href="\.\.\/\.\.\/logo\/dark\.svg\?v=[0-9a-f]{12}" media="\(prefers-color-scheme: dark\)">/,
  )
})

test('author text is escaped everywhere the shell writes it', async () => {
  const files = readFixture(shellSiteDir)
  files.set(
    'guide/deploy.mdx',
    encode(
      '---\ntitle: "<script>alert(1)</script>"\ndescription: "\\"><img src=x>"\ntag: "<b>"\n---\n\nBody.\n',
    ),
  )
  const result = await buildSite(files, { mode: 'strict' })
  for (const [path, bytes] of result.files) {
    if (!path.endsWith('.html')) continue
    const html = new TextDecoder().decode(bytes)
    assert.doesNotMatch(html, /<script>alert|<img src=x>|<b>/, path)
  }
  assert.match(
    text(result.files, 'guide/deploy/index.html'),
    /<h1 class="d-title">&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/h1>/,
  )
})

test('the PostHog loader cannot be broken out of by its key or host', () => {
  const html = renderAnalytics({
    posthog: { key: 'phc_</script><script>x()', host: 'https://eu.i.posthog.com/' },
  })
  assert.equal(html.match(/<\/script>/g)?.length, 1)
  assert.match(html, /"phc_\\u003c\/script>\\u003cscript>x\(\)"/)
  assert.match(html, /h="https:\/\/eu\.i\.posthog\.com"/)
  assert.equal(renderAnalytics(undefined), '')
})

test('icons by name come from the Font Awesome free sets, honouring the style', () => {
  assert.match(
    iconSvg('house', undefined) ?? '',
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 512 512"/,
  )
  assert.match(iconSvg('github', undefined) ?? '', /<path d="/, 'brands are found without naming the style')
  assert.notEqual(iconSvg('star', 'regular'), iconSvg('star', 'solid'))
  assert.equal(iconSvg('no-such-icon-anywhere', undefined), undefined)
  assert.equal(iconSvg('https://example.com/icon.svg', undefined), undefined)
})
