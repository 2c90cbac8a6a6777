import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type RenderPageInput, renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

const encoder = new TextEncoder()

async function input(source: string, overrides: Partial<RenderPageInput> = {}): Promise<RenderPageInput> {
  return {
    file: 'guide/setup.mdx',
    slug: 'guide/setup',
    source,
    files: new Map([
      ['images/shot.png', encoder.encode('png')],
      ['snippets/note.mdx', encoder.encode('Snippet for {who}.')],
    ]),
    pageSlugs: new Set(['index', 'guide/setup', 'quickstart']),
    mode: 'lenient',
    highlighter: await createHighlighter(),
    ...overrides,
  }
}

test('a page renders to body HTML with its title, description, toc, assets, icons and snippet dependencies', async () => {
  const page = await renderPage(
    await input(
      [
        '---',
        'title: Setup',
        'description: Get going',
        'keywords: [install]',
        '---',
        '',
        '## Install',
        '',
        '### From npm',
        '',
        '![Shot](/images/shot.png)',
        '',
        '<Snippet file="note.mdx" who="you" />',
        '',
        '<Card title="Next" icon="rocket" href="/quickstart">Go on.</Card>',
      ].join('\n'),
    ),
  )
  assert.equal(page.slug, 'guide/setup')
  assert.equal(page.title, 'Setup')
  assert.equal(page.description, 'Get going')
  assert.deepEqual(page.frontMatter, { title: 'Setup', description: 'Get going', keywords: ['install'] })
  assert.deepEqual(page.toc, [
    { depth: 2, id: 'install', text: 'Install' },
    { depth: 3, id: 'from-npm', text: 'From npm' },
  ])
  assert.deepEqual(page.assets, ['images/shot.png'])
  assert.deepEqual(page.icons, ['solid/rocket'])
  assert.deepEqual(page.dependencies, ['snippets/note.mdx'])
  assert.deepEqual(page.diagnostics, [])
  assert.match(page.html, /<img src="\.\.\/\.\.\/images\/shot\.png\?v=[0-9a-f]{12}" alt="Shot">/)
  assert.match(page.html, /<a href="\.\.\/\.\.\/quickstart\/" class="d-card d-card-interactive">/)
  assert.match(page.html, /<p>Snippet for you\.<\/p>/)
  assert.equal(page.text, 'Install\nFrom npm\nSnippet for you.\nNext\nGo on.')
  assert.match(page.markdown, /^## Install\n\n### From npm\n/)
  assert.deepEqual(JSON.parse(JSON.stringify(page)), page)
})

test("the .md export copies the author's Markdown as written and reduces components and snippets", async () => {
  const page = await renderPage(
    await input(
      [
        '---',
        'title: Setup',
        '---',
        '',
        '* one',
        '* two',
        '',
        '| Key | Use |',
        '|---|:--:|',
        '| `a` | first |',
        '',
        'Version {version} is out.',
        '',
        'export const version = 3',
        '',
        '<Note>',
        '  Read *this* first.',
        '',
        '  ```js title="x.js"',
        '    let x = 1',
        '  ```',
        '</Note>',
        '',
        '<Tip>Lazy',
        'line.</Tip>',
        '',
        '- item',
        '  <Snippet file="note.mdx" who="you" />',
        '',
        '<Snippet file="note.mdx" who="all" />',
      ].join('\n'),
    ),
  )
  assert.equal(
    page.markdown,
    [
      '* one',
      '* two',
      '',
      '| Key | Use |',
      '|---|:--:|',
      '| `a` | first |',
      '',
      'Version 3 is out.',
      '',
      '> **Note:** Read *this* first.',
      '>',
      '> ```js title="x.js"',
      '>   let x = 1',
      '> ```',
      '',
      '> **Tip:** Lazy',
      '> line.',
      '',
      '- item',
      '',
      '  Snippet for you.',
      '',
      'Snippet for all.',
      '',
    ].join('\n'),
  )
})

test('rendering is deterministic: the same input gives byte-identical output', async () => {
  const source =
    '---\ntitle: T\n---\n\n<Tabs><Tab title="A">a</Tab><Tab title="B">b</Tab></Tabs>\n\n<Tooltip tip="t">x</Tooltip>\n'
  const first = await renderPage(await input(source))
  const second = await renderPage(await input(source))
  assert.equal(first.html, second.html)
  assert.deepEqual(first, second)
})

test('strict mode turns author problems into errors; lenient mode into warnings', async () => {
  // A likely typo of a known key: an error in strict mode (another unknown key is only a warning).
  const source = '---\ntitle: T\ndescripton: 1\n---\n\n[gone](/missing) {Date.now()}\n'
  const strict = await renderPage(await input(source, { mode: 'strict' }))
  assert.deepEqual(
    strict.diagnostics.map((d) => [d.severity, d.rule, d.line, d.column]),
    [
      ['error', 'unknown-key', 3, 1],
      ['error', 'broken-link', 6, 1],
      ['error', 'non-static-expression', 6, 19],
    ],
  )
  const lenient = await renderPage(await input(source))
  assert.deepEqual(
    lenient.diagnostics.map((d) => d.severity),
    ['warning', 'warning', 'warning'],
  )
  assert.match(lenient.html, /<a href="\.\.\/\.\.\/missing\/">gone<\/a>/)
})

test('the root page links without climbing, and a page without front matter takes its title from the slug', async () => {
  const page = await renderPage(
    await input('[Guide](/guide/setup) and [home](/)', { file: 'index.mdx', slug: 'index' }),
  )
  assert.equal(page.title, 'Index')
  assert.match(page.html, /<a href="guide\/setup\/">Guide<\/a> and <a href="\.\/">home<\/a>/)
})

test('front matter without a title keeps its other keys; the title comes from the slug', async () => {
  const page = await renderPage(await input('---\ndescription: Still here\n---\n\nBody'))
  assert.equal(page.title, 'Setup')
  assert.equal(page.description, 'Still here')
  assert.deepEqual(page.frontMatter, { description: 'Still here', title: 'Setup' })
  assert.deepEqual(
    page.diagnostics.map((d) => [d.severity, d.rule]),
    [['warning', 'missing-title']],
  )
})

test('an unknown component or icon suggests the closest name; an unclosed component names its missing end tag at the opening line', async () => {
  const page = await renderPage(
    await input(
      '---\ntitle: T\n---\n\n<Calout>hi</Calout>\n\n<Card title="x" icon="chevron-rigth">y</Card>\n\n<Card title="y" icon="not-an-icon-name">z</Card>\n\n<Callout>\nNever closed.\n',
    ),
  )
  assert.deepEqual(
    page.diagnostics.map((d) => [d.rule, d.line, d.message]),
    [
      [
        'unknown-component',
        5,
        'Unknown component <Calout>; did you mean <Callout>? Its content is shown without it',
      ],
      [
        'unknown-icon',
        7,
        'Unknown icon "chevron-rigth"; did you mean "chevron-right"? A neutral circle is shown',
      ],
      [
        'unknown-icon',
        9,
        'Unknown icon "not-an-icon-name", expected a Font Awesome free icon name or a Lucide one; a neutral circle is shown',
      ],
      [
        'unclosed-component',
        11,
        'Unclosed `<Callout>`: missing `</Callout>`, expected after its content (or write `<Callout />`); the tag is shown as text',
      ],
    ],
  )
})
