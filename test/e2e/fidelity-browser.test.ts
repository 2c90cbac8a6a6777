/**
 * What authors wrote, as a reader sees it in Chromium, in both colour modes: a component defined in
 * code (rendered in the build's sandbox) styled like the built-in one it uses, and KaTeX math with its
 * own fonts loaded from the site, a Mermaid diagram drawn by the site's own mermaid (and drawn again
 * when the reader switches colour mode), and a Tailwind `dark:hidden` / `hidden dark:block` image pair
 * that shows exactly one image per mode; a root style.css styles the content but cannot hide the shell.
 * One browser for the file.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startDevServer } from '../../cli/dev/server.js'
import { launchChromium, noChromium } from '../chromium.js'

test('code components, math, diagrams and Tailwind render in light and dark mode', {
  skip: noChromium,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-fidelity-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'snippets'))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Fidelity',
      navigation: { groups: [{ group: 'Guide', pages: ['index', 'diagrams'] }] },
    }),
  )
  writeFileSync(
    join(dir, 'snippets', 'maintained.jsx'),
    'export const Maintained = ({ by }) => <Note><strong>Community-maintained</strong> by {by}.</Note>\n',
  )
  writeFileSync(
    join(dir, 'index.mdx'),
    [
      '---',
      'title: Fidelity',
      '---',
      'import { Maintained } from "/snippets/maintained.jsx"',
      '',
      '<Maintained by="Ann" />',
      '',
      '<Note>A built-in note for comparison.</Note>',
      '',
      '<span className="brand-tag">Tagged</span>',
      '',
      '$$',
      '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
      '$$',
    ].join('\n'),
  )
  // A root stylesheet that tries to hide the shell: scoped to the article, only its content rule lands.
  writeFileSync(
    join(dir, 'style.css'),
    'nav, .d-sidebar, body { display: none }\n.brand-tag { color: rgb(0, 128, 128) }\n',
  )
  const square = (colour: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="${colour}"/></svg>`
  writeFileSync(join(dir, 'light.svg'), square('white'))
  writeFileSync(join(dir, 'dark.svg'), square('black'))
  writeFileSync(
    join(dir, 'diagrams.mdx'),
    [
      '---',
      'title: Diagrams',
      '---',
      '```mermaid',
      'flowchart LR',
      '  Push --> Build --> Live',
      '```',
      '',
      '<Frame>',
      '  <img className="block dark:hidden" src="/light.svg" alt="Light screenshot" />',
      '  <img className="hidden dark:block" src="/dark.svg" alt="Dark screenshot" />',
      '</Frame>',
    ].join('\n'),
  )
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await launchChromium()
  t.after(() => browser.close())

  const seen: Record<
    string,
    {
      note: string
      builtIn: string
      mathFont: string
      fontLoaded: boolean
      mathColor: string
      shell: string[]
      tagColor: string
    }
  > = {}
  const shots: Record<string, Buffer> = {}
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 }, colorScheme })
    const foreign: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url())
    })
    await page.goto(server.url)
    await page.waitForSelector('.katex')
    seen[colorScheme] = await page.evaluate(async () => {
      await document.fonts.ready
      const [code, builtIn] = [...document.querySelectorAll('.d-callout')]
      const math = document.querySelector('.katex') as HTMLElement
      return {
        note: code ? `${code.textContent} ${getComputedStyle(code).backgroundColor}` : 'missing',
        builtIn: builtIn ? getComputedStyle(builtIn).backgroundColor : 'missing',
        mathFont: getComputedStyle(math).fontFamily,
        fontLoaded: [...document.fonts].some(
          (font) => font.family === 'KaTeX_Main' && font.status === 'loaded',
        ),
        mathColor: getComputedStyle(math).color,
        shell: ['body', '.d-sidebar', '.d-sidebar-nav', '.d-navbar', '.d-article'].map(
          (selector) =>
            `${selector}:${getComputedStyle(document.querySelector(selector) as Element).display}`,
        ),
        tagColor: getComputedStyle(document.querySelector('.brand-tag') as Element).color,
      }
    })
    shots[colorScheme] = await page.locator('.katex-display').screenshot()
    assert.deepEqual(foreign, [], `${colorScheme}: nothing loads from another origin`)
    await page.close()
  }
  const { light, dark } = seen as Record<'light' | 'dark', (typeof seen)[string]>
  t.diagnostic(JSON.stringify(seen))
  assert.match(light.note, /^Community-maintained by Ann\. /)
  assert.equal(
    light.note.replace(/^.*\. /, ''),
    light.builtIn,
    'the code component is styled as the built-in note',
  )
  assert.equal(dark.note.replace(/^.*\. /, ''), dark.builtIn, 'in dark mode too')
  assert.notEqual(light.builtIn, dark.builtIn, 'the note follows the colour mode')
  for (const mode of [light, dark]) {
    assert.match(mode.mathFont, /KaTeX_Main/)
    assert.equal(mode.fontLoaded, true, "KaTeX's font loaded from the site")
  }
  assert.notEqual(light.mathColor, dark.mathColor, 'math follows the colour mode')
  for (const mode of [light, dark]) {
    assert.deepEqual(
      mode.shell.filter((display) => display.endsWith(':none')),
      [],
      'style.css cannot hide the shell',
    )
    assert.equal(mode.tagColor, 'rgb(0, 128, 128)', "style.css styles the page's content")
  }
  assert.ok(!shots.light?.equals(shots.dark ?? Buffer.alloc(0)), 'the math looks different in the two modes')

  // A diagram and a light/dark image pair, in each mode, then after switching mode on the page.
  type Drawn = { svg: boolean; sourceHidden: boolean; nodeFill: string; shown: string[] }
  const drawn: Record<string, Drawn> = {}
  const read = (): Drawn => {
    const block = document.querySelector('.d-mermaid') as HTMLElement
    const node = block.querySelector('.d-mermaid-svg svg .node rect, .d-mermaid-svg svg .node path')
    return {
      svg: block.querySelector('.d-mermaid-svg svg') !== null,
      sourceHidden:
        getComputedStyle(block.querySelector('.d-mermaid-source') as HTMLElement).display === 'none',
      nodeFill: node ? getComputedStyle(node).fill : 'missing',
      shown: [...document.querySelectorAll('.d-frame img')]
        .filter((image) => getComputedStyle(image).display !== 'none')
        .map((image) => image.getAttribute('alt') ?? ''),
    }
  }
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 }, colorScheme })
    const foreign: string[] = []
    const refused: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url())
    })
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
    })
    const started = performance.now()
    await page.goto(`${server.url}diagrams/`)
    await page.waitForSelector('.d-mermaid-svg svg')
    t.diagnostic(
      `${colorScheme}: diagram drawn ${Math.round(performance.now() - started)} ms after navigation`,
    )
    drawn[colorScheme] = await page.evaluate(read)
    if (colorScheme === 'light') {
      await page.click('[data-theme-toggle]')
      await page.waitForSelector('.d-mermaid[data-theme="dark"] .d-mermaid-svg svg')
      drawn.switched = await page.evaluate(read)
    }
    assert.deepEqual(foreign, [], `${colorScheme}: mermaid and the images load from the site`)
    assert.deepEqual(refused, [], `${colorScheme}: nothing is refused by the page's CSP`)
    await page.close()
  }
  t.diagnostic(JSON.stringify(drawn))
  for (const [mode, state] of Object.entries(drawn)) {
    assert.equal(state.svg, true, `${mode}: the diagram is an SVG`)
    assert.equal(state.sourceHidden, true, `${mode}: its source is hidden once drawn`)
    assert.notEqual(state.nodeFill, 'missing', `${mode}: the diagram has nodes`)
  }
  assert.notEqual(drawn.light?.nodeFill, drawn.dark?.nodeFill, 'the diagram follows the colour mode')
  assert.equal(
    drawn.switched?.nodeFill,
    drawn.dark?.nodeFill,
    'switching mode draws it again in the dark theme',
  )
  assert.deepEqual(drawn.light?.shown, ['Light screenshot'])
  assert.deepEqual(drawn.dark?.shown, ['Dark screenshot'])
  assert.deepEqual(drawn.switched?.shown, ['Dark screenshot'])
})
