/**
 * Tailwind: the class names authors write on HTML elements (and code components return) compile to
 * one hashed stylesheet, linked only by pages that use them, with `dark:` bound to the shell's colour
 * mode and no preflight; stylesheets at the site's root are served (scoped) and linked after the theme's.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { assetVersion } from '../../../compiler/content/asset-version.js'
import { compileTailwind } from '../../../compiler/theme/tailwind.js'
import { text } from '../build/helpers.js'

const encoder = new TextEncoder()

const site = (pages: Record<string, string>, extra: Record<string, string> = {}) =>
  new Map([
    [
      'docs.json',
      encoder.encode(JSON.stringify({ name: 'Tailwind', navigation: { pages: Object.keys(pages) } })),
    ],
    ...Object.entries(pages).map(([slug, body]): [string, Uint8Array] => [
      `${slug}.mdx`,
      encoder.encode(`---\ntitle: ${slug}\n---\n${body}\n`),
    ]),
    ...Object.entries(extra).map(([path, body]): [string, Uint8Array] => [path, encoder.encode(body)]),
  ])

const pair =
  '<img className="block dark:hidden" src="/light.png" alt="Light" />\n<img className="hidden dark:block" src="/dark.png" alt="Dark" />'

test('the classes a site uses compile to one stylesheet, linked only by pages that use them', async () => {
  const built = await buildSite(
    site(
      {
        index: 'Plain prose.',
        screenshots: `<Frame>\n  ${pair}\n</Frame>`,
        card: 'export const Pill = ({ children }) => <span className="rounded-full px-2">{children}</span>\n\n<Pill>beta</Pill>',
        theme: '<div className="d-card not-a-tailwind-class">Only classes Tailwind does not know.</div>',
        spaced: '<Card title="Spaced" className="mt-8">A built-in component with classes.</Card>',
      },
      { 'light.png': 'light', 'dark.png': 'dark' },
    ),
    { mode: 'strict', workers: 1 },
  )
  assert.deepEqual(built.diagnostics, [])
  const stylesheets = [...built.files.keys()].filter((path) =>
    /^_assets\/tailwind\.[0-9a-f]{12}\.css$/.test(path),
  )
  assert.equal(stylesheets.length, 1)
  const path = stylesheets[0]!
  const css = text(built.files, path)
  assert.match(
    css,
    /\.dark\\:hidden:where\(\[data-theme=dark\], \[data-theme=dark\] \*\) \{\s*display: none !important;/,
  )
  assert.match(css, /\.hidden \{\s*display: none !important;/)
  assert.match(css, /\.rounded-full \{/, 'a class a code component returned is compiled')
  assert.match(css, /\.mt-8 \{/, 'a class on a built-in component is compiled')
  assert.doesNotMatch(
    css,
    /\.d-card|not-a-tailwind-class|box-sizing: border-box/,
    'no theme classes, no preflight',
  )
  const link = `<link rel="stylesheet" href="../${path}">`
  assert.ok(text(built.files, 'screenshots/index.html').includes(link))
  assert.ok(text(built.files, 'card/index.html').includes(link))
  assert.ok(text(built.files, 'spaced/index.html').includes(link))
  assert.ok(text(built.files, 'spaced/index.html').includes('<div class="d-card mt-8">'))
  assert.ok(!text(built.files, 'theme/index.html').includes('tailwind.'))
  assert.ok(!text(built.files, 'index.html').includes('tailwind.'))
  assert.ok(built.hashedAssets.has(path))
})

test('a site without class names never compiles Tailwind', async () => {
  assert.equal(await compileTailwind([]), undefined)
  assert.equal(await compileTailwind(['d-card', 'plan-highlight']), undefined)
  const built = await buildSite(site({ index: 'Plain prose.' }), { mode: 'strict', workers: 1 })
  assert.deepEqual(
    [...built.files.keys()].filter((file) => file.includes('tailwind')),
    [],
  )
})

test('stylesheets in sub-folders are served scoped and linked after the root ones, as the platform does', async () => {
  const built = await buildSite(
    site(
      { index: 'Plain prose.', 'guide/setup': pair },
      {
        'style.css': 'p { color: teal }',
        'styles/route.css': '.route-badge { color: red }',
        'snippets/widgets/card.css': '.widget { display: grid }',
      },
    ),
    { mode: 'strict', workers: 1 },
  )
  assert.equal(text(built.files, 'styles/route.css'), ':where(.d-prose) .route-badge { color: red }\n')
  assert.equal(text(built.files, 'snippets/widgets/card.css'), ':where(.d-prose) .widget { display: grid }\n')
  const page = text(built.files, 'guide/setup/index.html')
  const style = page.indexOf('href="../../style.css?v=')
  const card = page.indexOf('href="../../snippets/widgets/card.css?v=')
  const route = page.indexOf('href="../../styles/route.css?v=')
  assert.ok(style > 0 && style < route && route < card, 'root first, then by depth and path')
})

test('style.css and other stylesheets at the root are served and linked after the theme', async () => {
  const built = await buildSite(
    site(
      { index: 'Plain prose.', 'guide/setup': pair },
      {
        'style.css': 'p { color: teal }',
        'brand.css': ':root { --brand: red }',
      },
    ),
    { mode: 'strict', workers: 1 },
  )
  // Served scoped to the page's content (compiler/theme/scope-stylesheet.ts).
  assert.equal(text(built.files, 'style.css'), ':where(.d-prose) p { color: teal }\n')
  assert.ok(built.files.has('brand.css'))
  const page = text(built.files, 'guide/setup/index.html')
  const theme = page.indexOf('href="../../_assets/site.')
  const tailwind = page.indexOf('href="../../_assets/tailwind.')
  const brand = page.indexOf('href="../../brand.css?v=')
  const style = page.indexOf('href="../../style.css?v=')
  assert.ok(
    theme > 0 && theme < tailwind && tailwind < brand && brand < style,
    'theme, Tailwind, then the root stylesheets',
  )
  // Linked with the version of the scoped bytes it serves (content/asset-version.ts).
  const version = assetVersion(built.files.get('style.css')!)
  assert.ok(text(built.files, 'index.html').includes(`<link rel="stylesheet" href="style.css?v=${version}">`))
})

test('an arbitrary variant that names the shell compiles to a rule that matches only inside the content', async () => {
  const built = await buildSite(
    site({
      index:
        '<div className="[:root:has(&)_.d-header]:hidden [html_.d-sidebar_&]:block in-[.d-sidebar]:hidden [@scope(html)]:flex underline px-2">Hero</div>',
    }),
    { mode: 'strict', workers: 1 },
  )
  assert.deepEqual(built.diagnostics, [])
  const path = [...built.files.keys()].find((file) => file.startsWith('_assets/tailwind.'))!
  const css = text(built.files, path)
  assert.match(css, /^\/\*! tailwindcss v[\d.]+ \| MIT License/, 'the licence stays at the head')
  // Every style rule (a line that opens a block and is no at-rule) starts inside the content.
  const rules = css.split('\n').filter((line) => /^[^@\s].*\{/.test(line))
  assert.ok(rules.length >= 4, css)
  for (const rule of rules) assert.match(rule, /:where\(\.d-prose\)/, rule)
  assert.match(
    css,
    /:root:has\(\.\\\[\\:root\\:has\\\(\\&\\\)_\\\.d-header\\\]\\:hidden\) :where\(\.d-prose\) \.d-header \{/,
  )
  assert.match(css, /@scope \(:where\(\.d-prose\)\) \{/)
  assert.match(
    css,
    /^:where\(\.d-prose\) \{ --/m,
    "Tailwind's theme variables are set on the content, not :root",
  )
  assert.doesNotMatch(css, /^:root[, {]|:host/m)
  assert.match(css, /^:where\(\.d-prose\) \.underline \{/m, 'a plain utility still applies')
})
