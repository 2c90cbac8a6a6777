/**
 * Two things a reader notices at once, in Chromium: the text column stays where it is between pages
 * with and without "On this page", and search snippets start and end on whole words.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { startDevServer } from '../../cli/dev/server.js'
import { launchChromium, noChromium } from '../chromium.js'

/** `alpha0000 alpha0001 …`: every word is whole and different, so a cut word cannot pass as one. */
const filler = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `alpha${String(from + i).padStart(4, '0')}`).join(' ')

test('the text column does not jump between pages, and search snippets keep whole words', {
  skip: noChromium,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-layout-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Layout',
      navigation: { groups: [{ group: 'Guide', pages: ['index', 'plain'] }] },
    }),
  )
  writeFileSync(
    join(dir, 'index.mdx'),
    '---\ntitle: With headings\n---\n\n## Setup\n\nText.\n\n## Usage\n\nMore.\n',
  )
  writeFileSync(
    join(dir, 'plain.mdx'),
    `---\ntitle: Without headings\n---\n\n${filler(0, 40)} odd needle ${filler(40, 60)}\n`,
  )
  const server = await startDevServer({ dir, port: 0, log: () => {} })
  t.after(() => server.close())
  const browser = await launchChromium()
  t.after(() => browser.close())

  for (const width of [1440, 1000]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } })
    const measure = async (path: string) => {
      await page.goto(new URL(path, server.url).toString())
      return page.evaluate(() => ({
        hasToc: document.body.classList.contains('d-has-toc'),
        left: document.querySelector('.d-article')!.getBoundingClientRect().left,
        width: document.querySelector('.d-article')!.getBoundingClientRect().width,
      }))
    }
    const withToc = await measure('/')
    const withoutToc = await measure('/plain/')
    assert.equal(withToc.hasToc, true, 'the first page lists its headings')
    assert.equal(withoutToc.hasToc, false, 'the second has no headings to list')
    assert.equal(withoutToc.left, withToc.left, `the text starts at the same x at ${width}px`)
    assert.equal(withoutToc.width, withToc.width, `the text column is as wide at ${width}px`)
    await page.close()
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(server.url)
  await page.keyboard.press('Control+k')
  await page.fill('#d-search-input', 'needle')
  await page.waitForSelector('.d-search-result-excerpt')
  const snippet = (await page.textContent('.d-search-result-excerpt')) ?? ''
  assert.match(snippet, /^….*needle.*…$/, snippet)
  const words = snippet.slice(1, -1).trim().split(' ')
  assert.match(words[0]!, /^alpha\d{4}$/, `starts with a whole word: ${snippet}`)
  assert.match(words.at(-1)!, /^alpha\d{4}$/, `ends with a whole word: ${snippet}`)
})
