/**
 * The page sanitiser (content/rehype-sanitize-page.ts with content/sanitize-schema.ts) and the URL
 * policy (compiler/url-policy.ts): what an author writes that could run script never reaches the HTML,
 * in any letter case, through any component, and each refusal is reported at its line.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PAGE_DIAGNOSTIC_LIMIT } from '../../../compiler/content/context.js'
import { type RenderedPage, renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'
import { srcsetProblem, urlProblem } from '../../../compiler/url-policy.js'

async function render(body: string, mode: 'strict' | 'lenient' = 'lenient'): Promise<RenderedPage> {
  return renderPage({
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source: `---\ntitle: Sanitiser\n---\n\n${body}\n`,
    files: new Map([['images/a.png', new Uint8Array([1])]]),
    pageSlugs: new Set(['guide/page']),
    mode,
    highlighter: await createHighlighter(),
  })
}

/** Elements that must never reach a page, written in mixed case as the security review found them. */
const MIXED_CASE: Record<string, string> = {
  script: '<sCRIPT>alert(1)</sCRIPT>',
  style: '<sTyle>{"body { display: none }"}</sTyle>',
  base: '<bASE href="https://evil.example/" />',
  meta: '<mETA httpEquiv="refresh" content="0;url=javascript:alert(1)" />',
  form: '<fORM action="https://evil.example/"><button>Send</button></fORM>',
  link: '<lINK rel="stylesheet" href="https://evil.example/x.css" />',
  object: '<oBJECT data="https://evil.example/x.swf" />',
  embed: '<eMBED src="https://evil.example/x.swf" />',
}

for (const [element, markup] of Object.entries(MIXED_CASE)) {
  test(`<${element}> in any letter case is removed with a warning naming it and its line`, async () => {
    const page = await render(`Before.\n\n${markup}\n\nAfter.`)
    assert.doesNotMatch(page.html, new RegExp(`<${element}[\\s>/]`, 'i'))
    assert.doesNotMatch(page.html, /evil\.example|alert|display: none/)
    assert.match(page.html, /Before\./)
    assert.match(page.html, /After\./)
    const warning = page.diagnostics.find((diagnostic) => diagnostic.rule === 'forbidden-element')
    assert.ok(warning, `no warning for ${markup}: ${JSON.stringify(page.diagnostics)}`)
    assert.equal(warning.severity, 'warning')
    assert.equal(warning.line, 7)
    assert.match(warning.message, new RegExp(`<${markup.slice(1, element.length + 1)}>`))
  })
}

/** Raw-text elements re-parse their content; an attribute holding their end tag would become markup. */
const MUTATIONS: Record<string, string> = {
  noscript: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">x</p></noscript>',
  textarea: '<textarea><p title="</textarea><img src=x onerror=alert(1)>">x</p></textarea>',
  noembed: '<noembed><p title="</noembed><img src=x onerror=alert(1)>">x</p></noembed>',
  title: '<title><p title="</title><img src=x onerror=alert(1)>">x</p></title>',
  xmp: '<xmp><p title="</xmp><img src=x onerror=alert(1)>">x</p></xmp>',
  'svg style': '<svg><style><a title="</style><img src=x onerror=alert(1)>">x</a></style></svg>',
  math: '<math><mtext><table><mglyph><style><img src="x" onerror="alert(1)" /></style></mglyph></table></mtext></math>',
}

for (const [name, markup] of Object.entries(MUTATIONS)) {
  test(`mutation XSS through ${name} cannot produce an element`, async () => {
    const page = await render(markup)
    assert.doesNotMatch(page.html, /<img|onerror|<noscript|<textarea|<noembed|<title|<xmp|<style|<math/i)
  })
}

test('an iframe keeps an https video embed but never its children', async () => {
  const page = await render(
    '<iframe src="https://www.youtube.com/embed/abc" title="Video" allowFullScreen><p title="</iframe><img src=x onerror=alert(1)>">x</p></iframe>',
  )
  assert.match(
    page.html,
    /<iframe src="https:\/\/www\.youtube\.com\/embed\/abc" title="Video" allowfullscreen/,
  )
  assert.match(page.html, /<\/iframe>/)
  assert.doesNotMatch(page.html, /<img|onerror|<p title/)
})

test('frames load only http(s) pages', async () => {
  const page = await render(
    '<iframe src="data:text/html,<script>alert(1)</script>" />\n\n<iframe src="javascript:alert(1)" />\n\n<iframe src="vscode:x" />',
  )
  assert.doesNotMatch(page.html, /src=/)
  assert.equal(page.diagnostics.filter((diagnostic) => diagnostic.rule === 'unsafe-url').length, 3)
})

test('event handlers in any letter case are left out with a warning', async () => {
  const page = await render('<img src="/images/a.png" ONERROR="alert(1)" onMouseOver="alert(2)" alt="" />')
  assert.doesNotMatch(page.html, /onerror|onmouseover|alert/i)
  assert.match(page.html, /<img src="\.\.\/\.\.\/images\/a\.png\?v=[0-9a-f]{12}"/)
  assert.equal(page.diagnostics.filter((diagnostic) => diagnostic.rule === 'forbidden-attribute').length, 2)
})

test('every URL attribute passes the URL policy: href, src, poster, srcset, xlink:href, formaction', async () => {
  const page = await render(
    [
      '<a href="JaVaScRiPt:alert(1)">a</a>',
      '<video src="javascript:alert(2)" poster="javascript:alert(3)" />',
      '<img srcSet="/images/a.png 1x, javascript:alert(4) 2x" alt="" />',
      '<svg><a xlinkHref="javascript:alert(5)"><text>t</text></a></svg>',
      '<svg><a href="javascript:alert(6)"><text>t</text></a></svg>',
      '<button formAction="javascript:alert(7)">b</button>',
      '[markdown](vbscript:msgbox(8))',
      '![image](data:text/html;base64,PHNjcmlwdD4=)',
    ].join('\n\n'),
  )
  assert.doesNotMatch(page.html, /javascript|vbscript|alert|data:/i)
  assert.ok(page.diagnostics.filter((diagnostic) => diagnostic.rule === 'unsafe-url').length >= 7)
})

test('what pages legitimately hold stays: app links, image data URLs, SVG drawings, tables, task lists', async () => {
  const page = await render(
    [
      '<a href="vscode:extension/example.docs">deep link</a> [mail](mailto:a@example.com)',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot" />',
      '<svg viewBox="0 0 10 10"><linearGradient id="g"><stop offset="0" stopColor="red" /></linearGradient><path d="M0 0h10" strokeWidth="2" stroke="url(#g)" /></svg>',
      '| a | b |\n| - | - |\n| 1 | 2 |',
      '- [x] done',
      '<details open><summary>More</summary>text</details>',
      '<Card title="Card" href="https://example.com" icon="rocket">body</Card>',
    ].join('\n\n'),
  )
  assert.match(page.html, /href="vscode:extension\/example\.docs"/)
  assert.match(page.html, /href="mailto:a@example\.com"/)
  assert.match(page.html, /src="data:image\/png;base64,iVBORw0KGgo="/)
  assert.match(
    page.html,
    /<linearGradient id="g"><stop offset="0" stop-color="red"><\/stop><\/linearGradient>/,
  )
  assert.match(page.html, /stroke-width="2"/)
  assert.match(page.html, /<table>/)
  assert.match(page.html, /<input type="checkbox" checked disabled/)
  assert.match(page.html, /<details open>/)
  assert.match(
    page.html,
    /<a href="https:\/\/example\.com" target="_blank" rel="noopener noreferrer" class="d-card/,
  )
  assert.deepEqual(
    page.diagnostics.filter(
      (diagnostic) => diagnostic.severity !== 'warning' || /forbidden|unsafe/.test(diagnostic.rule),
    ),
    [],
  )
})

test('markup props cannot bring in base, meta http-equiv, form, script or handlers', async () => {
  const page = await render(
    [
      '<Card title="a" icon={<base href="https://evil.example/" />}>x</Card>',
      '<Card title="b" icon={<meta httpEquiv="refresh" content="0;url=https://evil.example/" />}>x</Card>',
      '<Card title="c" icon={<form action="https://evil.example/"><input name="q" /></form>}>x</Card>',
      '<Icon icon={<svg onLoad="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)"><path d="M0 0" /></a></svg>} />',
      '<Callout icon={<img src="x" onError="alert(4)" />}>x</Callout>',
    ].join('\n\n'),
  )
  assert.doesNotMatch(
    page.html,
    /<base|<meta|<form|<input name|<script|onload|onerror|javascript|evil\.example/i,
  )
  assert.match(page.html, /<path d="M0 0">/)
})

test('component props that take a URL pass the URL policy', async () => {
  const page = await render(
    [
      '<Card title="a" href="javascript:alert(1)">x</Card>',
      '<Card title="b" img="javascript:alert(2)">x</Card>',
      '<Card title="c" icon="data:text/html,<script>alert(3)</script>">x</Card>',
      '<Link href="java\tscript:alert(4)">x</Link>',
      '<Icon icon="javascript:alert(5)//x.svg" />',
      '<Steps><Step title="s" icon="javascript:alert(6)//x.svg">x</Step></Steps>',
      '<Accordion title="t" icon="vbscript:alert(7)//x.svg">x</Accordion>',
    ].join('\n\n'),
  )
  assert.doesNotMatch(page.html, /script:|alert|data:/i)
  assert.ok(page.diagnostics.filter((diagnostic) => diagnostic.rule === 'unsafe-url').length >= 7)
})

test('shell script attributes cannot be planted in a page to hand it a script URL', async () => {
  const page = await render(
    '<div className="d-contextual" data-markdown="x"><a data-page-template="javascript:alert(1)" data-assistant="javascript:alert(2)">x</a></div>',
  )
  assert.doesNotMatch(page.html, /data-page-template|data-assistant|data-markdown|javascript/)
})

test('a page keeps at most the diagnostic limit, then one that counts the rest and keeps their severity', async () => {
  const count = PAGE_DIAGNOSTIC_LIMIT + 150
  const page = await render('<i onclick="x">i</i>'.repeat(count))
  assert.equal(page.diagnostics.length, PAGE_DIAGNOSTIC_LIMIT + 1)
  const summary = page.diagnostics.find((diagnostic) => diagnostic.rule === 'too-many-diagnostics')
  assert.equal(summary?.severity, 'warning')
  assert.match(summary?.message ?? '', /^150 more problems on this page/)
  // Errors past the limit still fail the build: the count that stands for them is an error.
  const strict = await render('[x](/missing)\n\n'.repeat(count), 'strict')
  assert.equal(strict.diagnostics.length, PAGE_DIAGNOSTIC_LIMIT + 1)
  assert.equal(
    strict.diagnostics.find((diagnostic) => diagnostic.rule === 'too-many-diagnostics')?.severity,
    'error',
  )
})

test('the URL policy: script schemes anywhere, data only for images, frames only http(s)', () => {
  for (const url of [
    'javascript:alert(1)',
    ' JAVASCRIPT:x',
    'java\tscript:x',
    '\u0001javascript:x',
    'vbscript:x',
    'java\nscript:x',
  ])
    assert.equal(urlProblem(url, 'link'), 'script URL', JSON.stringify(url))
  assert.equal(urlProblem('data:text/html,x', 'link'), 'data: URL that is not an image')
  assert.equal(urlProblem('data:image/png;base64,AA', 'link'), 'data: URL that is not an image')
  assert.equal(urlProblem('data:image/png;base64,AA', 'image'), undefined)
  assert.equal(
    urlProblem('data:image/svg+xml,<svg onload=alert(1)>', 'image'),
    'data: URL that is not an image',
  )
  assert.equal(urlProblem('vscode:extension/x', 'frame'), 'vscode: URL in a frame')
  for (const url of [
    'https://example.com',
    '/guide/',
    '../a.png',
    '#top',
    'mailto:a@b.c',
    'vscode:x',
    'a:b/c',
  ])
    assert.equal(urlProblem(url, 'link'), undefined, url)
  assert.equal(srcsetProblem('a.png 1x, b.png 2x', 'image'), undefined)
  assert.equal(srcsetProblem('data:image/png;base64,AA 1x, b.png 2x', 'image'), undefined)
  assert.equal(srcsetProblem('a.png 1x,java script:alert(1) 2x', 'image'), 'script URL')
})
