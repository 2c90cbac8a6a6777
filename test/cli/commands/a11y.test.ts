import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { needs } from '../../tier.js'
import { runCli } from './cli-run.js'

async function site(t: { after: (fn: () => Promise<void>) => void }, page: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'a11y-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({ name: 'Plants', navigation: { pages: ['index'] } }),
  )
  await writeFile(join(dir, 'index.mdx'), page)
  return dir
}

const page = [
  '---',
  'title: Home',
  '---',
  '',
  '## Start',
  '',
  '![](/images/a.png) and <img src="/b.png"> and <img src="/c.png" alt="">',
  '',
  '#### Deep',
  '',
  '[click here](/start) or [](/x) or <a href="/y"></a> or [the guide](/guide)',
  '',
  '```md',
  '![](/ignored.png) [here](/x)',
  '```',
  '',
  'Inline `![](/no.png)` is code.',
  '',
].join('\n')

test('a11y reports images without alt text, skipped headings and link text at file:line:col', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(t, page)
  const run = runCli(['a11y'], dir)
  assert.equal(run.status, 1)
  assert.equal(
    run.stderr,
    [
      'error index.mdx:7:1 Image without alt text; describe it: ![What it shows](…)',
      'error index.mdx:7:24 Image without alt text; add alt="what it shows" (alt="" only for a decorative image)',
      'error index.mdx:11:25 Link without text; screen readers read its URL instead: say where it leads',
      'error index.mdx:11:35 Link without text; screen readers read its URL instead: say where it leads',
      '✖ .: 4 errors, 2 warnings in 1 page',
      '',
    ].join('\n'),
  )
  assert.equal(
    run.stdout,
    [
      'warning index.mdx:9:1 Heading level skipped (h2 → h4); use ### (h3) so screen-reader users can follow the outline',
      'warning index.mdx:11:1 Link text "click here" says nothing out of context; name where it leads ("the installation guide")',
      '',
    ].join('\n'),
  )

  const json = runCli(['a11y', '.', '--json'], dir)
  assert.equal(json.status, 1)
  const result = JSON.parse(json.stdout) as {
    ok: boolean
    pages: number
    diagnostics: { rule: string; line: number }[]
    contrast: { scheme: string; use: string; ratio: number }[]
  }
  assert.equal(result.ok, false)
  assert.equal(result.pages, 1)
  assert.deepEqual(
    result.diagnostics.map(({ rule, line }) => `${rule}:${line}`),
    ['image-alt:7', 'image-alt:7', 'heading-order:9', 'link-text:11', 'link-text:11', 'link-text:11'],
  )
  // The theme's colours, light and dark, each pair measured.
  const body = result.contrast.find((pair) => pair.scheme === 'light' && pair.use === 'body text')
  assert.ok(body && body.ratio > 15, JSON.stringify(body))
  assert.ok(result.contrast.some((pair) => pair.scheme === 'dark' && pair.use === 'links'))
  assert.ok(result.contrast.every((pair) => pair.ratio >= 4.5))
})

test('a11y passes a page with alt text, ordered headings and descriptive links', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = await site(
    t,
    '---\ntitle: Home\n---\n\n## Start\n\n![A fern](/fern.png) <img src="/line.svg" alt="" />\n\n### Next\n\nRead [the watering guide](/watering).\n',
  )
  const run = runCli(['a11y', '.'], dir)
  assert.equal(run.status, 0, run.stderr)
  assert.match(
    run.stdout,
    /^✔ \.: 0 errors, 0 warnings in 1 page; theme colours pass WCAG AA \(lowest contrast \d+(\.\d+)?:1\)\n$/,
  )
})
