import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSite } from '../../../compiler/build.js'
import { renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'

/** Pages an author (or an attacker) might write; none may crash the render or escape the site. */
const HOSTILE: Record<string, string> = {
  'unclosed JSX': '<Card title="x">\n\ntext',
  'stray brace': 'a { b',
  'front matter only': '---\ntitle: x\n---',
  'unterminated front matter': '---\ntitle: x\n',
  'binary-ish': '\u0000\u0001\u0002<\u0003>{\u0004}',
  'snippet path escape': '<Snippet file="../../../etc/passwd" />',
  'snippet absolute escape': "import X from '/snippets/../../secret.mdx'\n\n<X />",
  'huge highlight range': '```ts {1-99999999}\nconst a = 1\n```',
  'deep nesting': `${'<Note>'.repeat(60)}deep${'</Note>'.repeat(60)}`,
  'tabs with junk': '<Tabs>\n\ntext\n\n<Tab>ok</Tab>\n\n{1}\n</Tabs>',
  'empty components': '<Tabs></Tabs><Steps></Steps><CodeGroup></CodeGroup><TypeTable /><Tree></Tree>',
  'props of every type': '<Card title={["a"]} href={{ a: 1 }} cols={null} icon={42} horizontal="maybe" />',
  'script everywhere':
    '<script>alert(1)</script>\n\n<img src="x" onError="alert(1)" />\n\n[x](javascript:alert(1))',
  'proto pollution': 'export const a = { __proto__: { polluted: true } }\n\n{a.polluted}',
  'expression with await': '{await fetch("/")}',
  'export function': 'export function f() { return 1 }',
  // Found by test:reliability: names looked up in plain objects found Object.prototype's members.
  'elements named like members of every object':
    '<constructor src="/x.png" href="/y">a</constructor>\n\n<toString>b</toString>\n\n<hasOwnProperty />',
  'attributes named like members of every object': '<div constructor="x" toString="y" valueOf="z">a</div>',
  'a fence named like a member of every object': '```constructor\nnew Thing()\n```',
}

for (const [name, body] of Object.entries(HOSTILE)) {
  test(`hostile input: ${name}`, async () => {
    for (const mode of ['strict', 'lenient'] as const) {
      const page = await renderPage({
        file: 'guide/page.mdx',
        slug: 'guide/page',
        source: body.startsWith('---') ? body : `---\ntitle: Hostile\n---\n\n${body}\n`,
        files: new Map([['snippets/ok.mdx', new TextEncoder().encode('ok')]]),
        pageSlugs: new Set(['guide/page']),
        mode,
        highlighter: await createHighlighter(),
      })
      assert.equal(typeof page.html, 'string')
      assert.doesNotMatch(page.html, /<script|onerror|javascript:/i)
      assert.ok(
        page.dependencies.every((path) => !path.includes('..')),
        'no file outside the site is read',
      )
      for (const diagnostic of page.diagnostics) {
        assert.ok(diagnostic.message.length > 0 && diagnostic.rule.length > 0)
        if (mode === 'lenient') assert.equal(diagnostic.severity, 'warning', `${name}: ${diagnostic.message}`)
      }
    }
  })
}

test('snippets that include each other four times over stop at the expansion limit instead of multiplying', async () => {
  // 20 levels of four copies each would be 4^20 copies; a few kilobytes of upload must not hold a build.
  const files = new Map<string, Uint8Array>()
  for (let level = 0; level < 20; level++) {
    files.set(
      `snippets/s${level}.mdx`,
      new TextEncoder().encode(`<Snippet file="s${level + 1}.mdx" />\n`.repeat(4)),
    )
  }
  files.set('snippets/s20.mdx', new TextEncoder().encode('leaf'))
  const page = await renderPage({
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source: '---\ntitle: Bomb\n---\n\n<Snippet file="s0.mdx" />\n',
    files,
    pageSlugs: new Set(['guide/page']),
    mode: 'lenient',
    highlighter: await createHighlighter(),
  })
  const limits = page.diagnostics.filter((diagnostic) => diagnostic.rule === 'snippet-limit')
  assert.equal(limits.length, 1)
  assert.equal(limits[0]?.severity, 'error')
  assert.ok((page.html.match(/leaf/g) ?? []).length <= 500)
})

test('an element named like a member of every object is no callout in the Markdown export', async () => {
  const encode = (text: string) => new TextEncoder().encode(text)
  const result = await buildSite(
    new Map([
      ['docs.json', encode(JSON.stringify({ name: 'Proto', navigation: { pages: ['index'] } }))],
      ['index.mdx', encode('---\ntitle: Proto\n---\n\n<constructor>inside</constructor>\n')],
    ]),
    { mode: 'lenient' },
  )
  const markdown = new TextDecoder().decode(result.files.get('index.md'))
  assert.match(markdown, /inside/)
  assert.doesNotMatch(markdown, /function|native code/)
})
