/**
 * What authors wrote, as a reader sees it in Chromium, in both colour modes: a component defined in
 * code (rendered in the build's sandbox) styled like the built-in one it uses, and KaTeX math with its
 * own fonts loaded from the site. One browser for the file.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startDevServer } from '../../cli/dev/server.js'
import { launchChromium, noChromium } from '../chromium.js'

test('code components and math render in light and dark mode', { skip: noChromium }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-fidelity-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'snippets'))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({ name: 'Fidelity', navigation: { groups: [{ group: 'Guide', pages: ['index'] }] } }),
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
      '$$',
      '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
      '$$',
    ].join('\n'),
  )
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await launchChromium()
  t.after(() => browser.close())

  const seen: Record<
    string,
    { note: string; builtIn: string; mathFont: string; fontLoaded: boolean; mathColor: string }
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
  assert.ok(!shots.light?.equals(shots.dark ?? Buffer.alloc(0)), 'the math looks different in the two modes')
})
