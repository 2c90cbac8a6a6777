/**
 * `npm run bench:build`: a generated corpus (prose, tables, two to four code blocks in several
 * languages, components) built cold with one render worker per core, then rebuilt after a one-page
 * edit. Prints pages/s, peak RSS and the rebuild's share of the cold time. `--large` adds a
 * 10,000-page build in a child process (its own peak RSS); `--pages N` sets the corpus size.
 * It prints figures; it does not assert.
 */
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { buildSite } from '../compiler/build.js'

const languages = [
  [
    'ts',
    'export async function handler(request: Request): Promise<Response> {\n  const body = await request.json()\n  return Response.json({ ok: true, id: body.id })\n}',
  ],
  [
    'python',
    'def paginate(items, size=20):\n    for start in range(0, len(items), size):\n        yield items[start:start + size]',
  ],
  [
    'bash',
    'curl -X POST https://api.example.com/v1/items \\\n  -H "Authorization: Bearer $TOKEN" \\\n  -d \'{"name": "widget"}\'',
  ],
  ['json', '{\n  "name": "widget",\n  "tags": ["blue", "small"],\n  "price": 12.5\n}'],
  [
    'go',
    'func Sum(values []int) int {\n\ttotal := 0\n\tfor _, v := range values {\n\t\ttotal += v\n\t}\n\treturn total\n}',
  ],
  ['yaml', 'service:\n  name: api\n  replicas: 3\n  env:\n    - LOG_LEVEL=info'],
  [
    'rust',
    'fn main() {\n    let words: Vec<&str> = "a b c".split(\' \').collect();\n    println!("{}", words.len());\n}',
  ],
] as const

function page(index: number, pages: number): string {
  const blocks = 2 + (index % 3)
  const code = Array.from({ length: blocks }, (_, block) => {
    const [lang, source] = languages[(index + block) % languages.length]!
    return `\`\`\`${lang} title="example-${block}.${lang}"\n${source.replace('widget', `widget-${index}-${block}`)}\n\`\`\``
  }).join('\n\n')
  const next = `section-${Math.floor(((index + 1) % pages) / 50)}/page-${(index + 1) % pages}`
  return `---
title: Page ${index}
description: Reference page number ${index} of the generated corpus.
---

## Overview

This page explains feature ${index} in detail. It links to [the next page](/${next}) and covers
configuration, limits and examples. **Bold text**, _emphasis_ and \`inline code\` appear in prose.

<Note>Feature ${index} is available on every plan.</Note>

| Option | Type | Default |
| ------ | ---- | ------- |
| name | string | none |
| size | number | ${index % 10} |
| enabled | boolean | true |

## Examples

${code}

<Steps>
  <Step title="Install">Install the package.</Step>
  <Step title="Configure">Set the options above.</Step>
</Steps>

<Accordion title="Troubleshooting">
  Restart the service after changing feature ${index}.
</Accordion>

### Limits

- Up to ${index + 10} requests per second
- Payloads up to 4 MB
`
}

const SECTIONS_PER_TAB = 10

export function generateCorpus(pages: number): Map<string, Uint8Array> {
  const encoder = new TextEncoder()
  const files = new Map<string, Uint8Array>()
  const sections = Math.ceil(pages / 50)
  // Large sites split into tabs, as real ones do: 10 sections (500 pages) per tab, each its own sidebar.
  const tabs = Array.from({ length: Math.ceil(sections / SECTIONS_PER_TAB) }, (_, tab) => ({
    tab: `Part ${tab + 1}`,
    groups: Array.from(
      { length: Math.min(SECTIONS_PER_TAB, sections - tab * SECTIONS_PER_TAB) },
      (_, offset) => {
        const section = tab * SECTIONS_PER_TAB + offset
        return {
          group: `Section ${section}`,
          pages: Array.from(
            { length: Math.min(50, pages - section * 50) },
            (_, i) => `section-${section}/page-${section * 50 + i}`,
          ),
        }
      },
    ),
  }))
  files.set(
    'docs.json',
    encoder.encode(JSON.stringify({ name: 'Bench Docs', navigation: { tabs } }, null, 2)),
  )
  for (let index = 0; index < pages; index++) {
    files.set(`section-${Math.floor(index / 50)}/page-${index}.mdx`, encoder.encode(page(index, pages)))
  }
  return files
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)

async function run(pages: number, workers: number): Promise<void> {
  const files = generateCorpus(pages)
  const coldStart = performance.now()
  const cold = await buildSite(files, { mode: 'lenient', workers })
  const coldMs = performance.now() - coldStart
  const errors = cold.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
  const tabs = Math.ceil(pages / (SECTIONS_PER_TAB * 50))
  console.log(
    `cold build: ${pages} pages (${tabs} tab${tabs === 1 ? '' : 's'}) in ${(coldMs / 1000).toFixed(2)} s with ${workers} workers → ${Math.round(pages / (coldMs / 1000))} pages/s (${cold.files.size} files, ${errors} errors, ${cold.diagnostics.length - errors} warnings)`,
  )
  console.log(`peak RSS after the cold build: ${peakRssMb()} MB`)
  // A caller writes the files out and keeps only the cache, as the server and `docsctl build` do.
  cold.files.clear()
  // Two one-page edits: the first rebuild also starts this thread's highlighter (a long-lived
  // server build worker or `docsctl dev` has it already); the second shows the steady state.
  let cache = cold.cache
  const edited = new Map(files)
  for (const [label, target] of [
    ['one-page rebuild (cold highlighter)', 'section-0/page-3.mdx'],
    ['one-page rebuild (warm)', 'section-1/page-57.mdx'],
  ] as const) {
    edited.set(
      target,
      new TextEncoder().encode(`${new TextDecoder().decode(files.get(target))}\nOne edited line.\n`),
    )
    const rebuildStart = performance.now()
    const rebuild = await buildSite(edited, { mode: 'lenient', workers, cache })
    const rebuildMs = performance.now() - rebuildStart
    cache = rebuild.cache
    console.log(
      `${label}: ${rebuildMs.toFixed(0)} ms, ${rebuild.stats.pagesRendered} page rendered, ${rebuild.stats.pagesReused} reused, ${rebuild.stats.highlightCalls} highlight calls → ${((rebuildMs / coldMs) * 100).toFixed(1)}% of the cold build`,
    )
  }
  console.log(`peak RSS overall: ${peakRssMb()} MB`)
}

// Run only when executed, so tests and profiling scripts can import generateCorpus.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const pagesFlag = args.indexOf('--pages')
  const pages = pagesFlag >= 0 ? Number(args[pagesFlag + 1]) : 1000
  const workers = availableParallelism()
  console.log(`bench:build on ${availableParallelism()} cores, node ${process.version}`)
  await run(pages, workers)
  if (args.includes('--large')) {
    console.log('\n10,000-page build (child process, its own peak RSS):')
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--pages', '10000'], {
      stdio: 'inherit',
    })
    if (child.status !== 0) console.log(`the 10,000-page build exited with code ${child.status}`)
  }
}
