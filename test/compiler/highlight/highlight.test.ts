import assert from 'node:assert/strict'
import { test } from 'node:test'
import { toHtml } from 'hast-util-to-html'
import { renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter, createSeparateHighlighter } from '../../../compiler/highlight/index.js'
import { parseCodeMeta } from '../../../compiler/highlight/meta.js'

test('one highlighter per process', async () => {
  assert.equal(await createHighlighter(), await createHighlighter())
})

test('light and dark colours come out in one pass as CSS variables', async () => {
  const highlighter = await createHighlighter()
  const pre = await highlighter.highlight('const answer = 42', 'ts')
  assert.ok(pre)
  const html = toHtml(pre)
  assert.match(html, /^<pre class="shiki shiki-themes github-light github-dark"/)
  assert.match(html, /--shiki-light:#D73A49;--shiki-dark:#F97583">const</)
})

test('identical code is highlighted once; each call gets its own tree', async () => {
  const highlighter = await createHighlighter()
  const code = `let unique = ${Math.PI}`
  const before = highlighter.calls
  const first = await highlighter.highlight(code, 'js')
  assert.equal(highlighter.calls, before + 1)
  const second = await highlighter.highlight(code, 'javascript')
  const third = await highlighter.highlight(code, 'js')
  // `javascript` is another language id, so another entry; a repeat of `js` is free.
  assert.equal(highlighter.calls, before + 2)
  assert.ok(first && second && third)
  first.properties.className = ['changed']
  assert.notDeepEqual(third.properties.className, ['changed'])
})

test('languages: aliases and grammars load on demand, unknown ones are refused', async () => {
  const highlighter = await createHighlighter()
  assert.equal(highlighter.knows('sh'), true)
  assert.equal(highlighter.knows('PY'), true)
  assert.equal(highlighter.knows('env'), true)
  assert.equal(highlighter.knows('text'), true)
  assert.equal(highlighter.knows('klingon'), false)
  assert.equal(await highlighter.highlight('x', 'klingon'), undefined)
  const python = await highlighter.highlight('print("hi")', 'py')
  assert.match(toHtml(python ?? { type: 'text', value: '' }), /--shiki-dark/)
})

test('a fence named like a member of every object (constructor, toString) is unknown, not a crash', async () => {
  // Found by test:reliability's generated MDX: "```constructor" failed the page with
  // "lang.toLowerCase is not a function", the name having been looked up on Object.prototype.
  const highlighter = await createHighlighter()
  for (const lang of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    assert.equal(highlighter.knows(lang), false, lang)
    assert.equal(await highlighter.highlight('x', lang), undefined, lang)
  }
  const page = await renderPage({
    file: 'a.mdx',
    slug: 'a',
    source: '```constructor\nnew Thing()\n```\n\n```md\n```toString\nx\n```\n```\n',
    files: new Map(),
    pageSlugs: new Set(['a']),
    mode: 'lenient',
    highlighter,
  })
  assert.deepEqual(
    page.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
  )
  assert.match(page.html, /new Thing\(\)/)
})

test('fence meta: title, bare-word title, line ranges and flags', () => {
  assert.deepEqual(parseCodeMeta('title="app.ts" {1,3-5}'), { title: 'app.ts', highlight: [1, 3, 4, 5] })
  assert.deepEqual(parseCodeMeta('server.js'), { title: 'server.js', highlight: [] })
  assert.deepEqual(parseCodeMeta('My File lines {2}'), { title: 'My File', highlight: [2] })
  assert.deepEqual(parseCodeMeta("filename='x.py' highlight={4}"), { title: 'x.py', highlight: [4] })
  assert.deepEqual(parseCodeMeta(undefined), { highlight: [] })
  assert.deepEqual(parseCodeMeta('wrap'), { highlight: [] })
})

test('fence meta: a brace group with spaces is one option, never part of the title', () => {
  assert.deepEqual(parseCodeMeta('focus={16, 17, 21}'), { highlight: [16, 17, 21] })
  assert.deepEqual(parseCodeMeta('{1, 3-5}'), { highlight: [1, 3, 4, 5] })
  assert.deepEqual(parseCodeMeta('server.js {1, 3} lines'), { title: 'server.js', highlight: [1, 3] })
  assert.deepEqual(parseCodeMeta('Agent setup highlight={2, 4-5} wrap'), {
    title: 'Agent setup',
    highlight: [2, 4, 5],
  })
  assert.deepEqual(parseCodeMeta('icon="python" theme={ dark: true } main.py'), {
    title: 'main.py',
    highlight: [],
  })
})

test('re-rendering a page with unchanged code blocks makes no shiki call', async () => {
  const highlighter = await createHighlighter()
  const source = [
    '---',
    'title: Rebuild',
    '---',
    '',
    '```go',
    `package main // ${Date.now()}`,
    '```',
    '',
    '```yaml',
    'key: value',
    '```',
  ].join('\n')
  const input = {
    file: 'a.mdx',
    slug: 'a',
    source,
    files: new Map(),
    pageSlugs: new Set(['a']),
    mode: 'strict' as const,
    highlighter,
  }
  const first = await renderPage(input)
  const calls = highlighter.calls
  const second = await renderPage(input)
  assert.equal(highlighter.calls, calls)
  assert.equal(second.html, first.html)
})

test('the highlight cache keeps the most recently used code, up to 64 K characters, so it stays bounded', async () => {
  const highlighter = await createSeparateHighlighter({})
  // 1,000 characters a block: block 0 is still cached after 64 more, and dropped after 65.
  const block = (index: number) => `block ${index}`.padEnd(1000, '.')
  for (let index = 0; index <= 64; index++) await highlighter.highlight(block(index), 'text')
  const calls = highlighter.calls
  await highlighter.highlight(block(0), 'text')
  await highlighter.highlight(block(64), 'text')
  assert.equal(highlighter.calls, calls, 'recent blocks come from the cache')
  await highlighter.highlight(block(65), 'text')
  await highlighter.highlight(block(1), 'text')
  assert.equal(highlighter.calls, calls + 2, 'the least recently used block was dropped')
  const huge = 'x'.repeat(70_000)
  await highlighter.highlight(huge, 'text')
  await highlighter.highlight(huge, 'text')
  assert.equal(highlighter.calls, calls + 4, 'a block larger than the whole cache is never kept')
})

test('a Markdown or MDX block comes out the same whichever languages were highlighted before it', async () => {
  const mdx = '---\ntitle: Setup\nicon: "bolt"\n---\n\n# Setup\n\n```python\nprint("hi")\n```\n'
  const fresh = await createSeparateHighlighter({})
  const first = await fresh.highlight(mdx, 'mdx')
  const used = await createSeparateHighlighter({})
  // Grammars MDX embeds only when they happen to be loaded: front matter and a fence.
  for (const [code, lang] of [
    ['title: x', 'yaml'],
    ['print(1)', 'python'],
    ['# Title', 'markdown'],
  ] as const)
    await used.highlight(code, lang)
  const after = await used.highlight(mdx, 'mdx')
  assert.ok(first && after)
  assert.equal(toHtml(after), toHtml(first))
  // The fence's own language is loaded for the block, so its code is coloured token by token.
  const lines = toHtml(first).split('<span class="line">')
  const python = lines.find((line) => line.includes('print'))
  assert.ok(python && (python.match(/<span style/g)?.length ?? 0) > 2, python ?? 'no line with print')
  // A block naming another language comes out the same before and after this one.
  const go = '# Go\n\n```go\nfunc main() {}\n```\n'
  assert.equal(toHtml((await used.highlight(go, 'mdx'))!), toHtml((await fresh.highlight(go, 'mdx'))!))
  // Languages without such embedding still share the process's grammars and caches.
  assert.match(toHtml((await used.highlight('x = 1', 'python')) ?? first), /--shiki-dark/)
})
