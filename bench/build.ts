/**
 * `npm run bench:build`: a generated corpus (prose, tables, two to four code blocks in several
 * languages, components) built cold with one render worker per core, then rebuilt after a one-page
 * edit. Prints pages/s, peak RSS and the rebuild's share of the cold time, and Hugo's time on the same
 * corpus in the same run (when `hugo` is installed). Then `../shared/corpus/pipecat` (a real site) the
 * same way, in a child process. `--large` adds a 10,000-page build in a child process (its own peak
 * RSS); `--pages N` builds only a corpus of N pages, `--site DIR` only the docs folder DIR.
 * It prints figures; it does not assert.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { fromPackageRoot } from '../compiler/assets.js'
import { buildSite } from '../compiler/build.js'
import { raiseInterruptBudget } from '../lib/jit-budget.js'
import { readSiteFiles } from '../lib/site-dir.js'

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

interface Timed {
  coldMs: number
  coldCpuMs: number
  editMs: number
}

/**
 * A cold build of `files` streamed file by file (as `docsctl build` and the server take it; the
 * bytes are counted, not kept), then two one-page edits rebuilt with the cold build's cache.
 */
async function run(label: string, files: Map<string, Uint8Array>, workers: number): Promise<Timed> {
  const pages = [...files.keys()].filter((path) => /\.mdx?$/.test(path)).length
  const coldStart = performance.now()
  const cpuStart = process.cpuUsage()
  let outputs = 0
  let outputBytes = 0
  const cold = await buildSite(files, {
    mode: 'lenient',
    workers,
    onFile: (_path, bytes) => {
      outputs++
      outputBytes += bytes.byteLength
    },
  })
  const coldMs = performance.now() - coldStart
  const cpu = process.cpuUsage(cpuStart)
  const errors = cold.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
  console.log(
    `${label}: cold build of ${cold.stats.pages} pages (${pages} source pages) in ${(coldMs / 1000).toFixed(2)} s with ${workers} workers → ${Math.round(cold.stats.pages / (coldMs / 1000))} pages/s, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (${outputs} files, ${Math.round(outputBytes / 1048576)} MB, ${errors} errors, ${cold.diagnostics.length - errors} warnings)`,
  )
  const heap = process.memoryUsage()
  console.log(
    `${label}: peak RSS after the cold build: ${peakRssMb()} MB (now: main thread heap ${Math.round(heap.heapUsed / 1048576)} MB, array buffers ${Math.round(heap.arrayBuffers / 1048576)} MB)`,
  )
  // Two one-page edits, each collecting its files: the first also starts this thread's highlighter (a
  // long-lived server build worker or `docsctl dev` has it already) and wraps every page in the shell
  // again (a streamed build keeps no page output); the second shows the steady state of `docsctl dev`.
  let cache = cold.cache
  const edited = new Map(files)
  const targets = [...files.keys()].filter((path) => path.endsWith('.mdx')).slice(3, 5)
  let editMs = 0
  for (const [index, target] of targets.entries()) {
    edited.set(
      target,
      new TextEncoder().encode(`${new TextDecoder().decode(files.get(target))}\nOne edited line.\n`),
    )
    const rebuildStart = performance.now()
    const rebuild = await buildSite(edited, { mode: 'lenient', workers, cache })
    editMs = performance.now() - rebuildStart
    cache = rebuild.cache
    console.log(
      `${label}: one-page rebuild (${index === 0 ? 'cold highlighter, every shell' : 'warm'}): ${editMs.toFixed(0)} ms, ${rebuild.stats.pagesRendered} page rendered, ${rebuild.stats.pagesReused} reused, ${rebuild.stats.highlightCalls} highlight calls → ${((editMs / coldMs) * 100).toFixed(1)}% of the cold build`,
    )
  }
  console.log(`${label}: peak RSS overall: ${peakRssMb()} MB`)
  return { coldMs, coldCpuMs: (cpu.user + cpu.system) / 1000, editMs }
}

/**
 * The same corpus as a Hugo site: the same Markdown, components as raw HTML (Hugo passes them
 * through), code fenced and highlighted by Hugo's own highlighter, and a sidebar of the section's pages.
 */
async function writeHugoSite(files: Map<string, Uint8Array>, root: string): Promise<void> {
  await writeFile(
    join(root, 'config.toml'),
    'baseURL = "https://example.com/"\ntitle = "Bench Docs"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n[markup.goldmark.renderer]\nunsafe = true\n[markup.highlight]\nnoClasses = false\n',
  )
  const layouts = join(root, 'layouts', '_default')
  await mkdir(layouts, { recursive: true })
  const shell = (main: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title><meta name="description" content="{{ .Description }}"></head><body><nav>{{ range .Site.Sections }}<h3>{{ .Title }}</h3><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}</nav><main>${main}</main><aside>{{ .TableOfContents }}</aside></body></html>\n`
  await writeFile(join(layouts, 'single.html'), shell('<h1>{{ .Title }}</h1>{{ .Content }}'))
  await writeFile(join(layouts, 'list.html'), shell('<h1>{{ .Title }}</h1>'))
  for (const [path, bytes] of files) {
    if (!path.endsWith('.mdx')) continue
    const target = join(root, 'content', path.replace(/\.mdx$/, '.md'))
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, bytes)
  }
}

/** Hugo's cold build of the same corpus, timed in this run; undefined when hugo is not installed. */
async function hugoBuild(
  files: Map<string, Uint8Array>,
): Promise<{ ms: number; cpuMs?: number } | undefined> {
  const root = await mkdtemp(join(tmpdir(), 'bench-hugo-'))
  try {
    await writeHugoSite(files, root)
    const hugoArgs = ['--quiet', '--source', root, '--destination', join(root, 'public')]
    // GNU time reports the child's CPU seconds: on a shared machine the fairer comparison.
    const timed = existsSync('/usr/bin/time')
    const started = performance.now()
    const hugo = timed
      ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', 'hugo', ...hugoArgs], { encoding: 'utf8' })
      : spawnSync('hugo', hugoArgs, { encoding: 'utf8' })
    const ms = performance.now() - started
    if (hugo.error || hugo.status !== 0) return undefined
    const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(hugo.stderr)
    return cpu ? { ms, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : { ms }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

/** One benchmark in a child process, so its peak RSS is its own. */
function child(args: string[]): void {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' })
  if (result.status !== 0) console.log(`${args.join(' ')} exited with code ${result.status}`)
}

/** The real-world corpus (see test/corpus.ts): `DOCS_CORPUS`, else `../shared/corpus` beside this checkout. */
const PIPECAT = join(
  process.env.DOCS_CORPUS ??
    [join(fromPackageRoot(), '..', 'shared', 'corpus'), '/work/shared/corpus'].find((root) =>
      existsSync(root),
    ) ??
    '',
  'pipecat',
)

// Run only when executed, so tests and profiling scripts can import generateCorpus.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // As docsctl does, before any thread starts.
  raiseInterruptBudget(16)
  const args = process.argv.slice(2)
  const flag = (name: string) => {
    const at = args.indexOf(name)
    return at >= 0 ? args[at + 1] : undefined
  }
  const workers = availableParallelism()
  const site = flag('--site')
  if (site) {
    const read = await readSiteFiles(site)
    await run(basename(site), read.files, workers)
  } else if (flag('--pages')) {
    await run(`bench corpus`, generateCorpus(Number(flag('--pages'))), workers)
  } else {
    const pages = 1000
    console.log(
      `bench:build on ${availableParallelism()} cores, node ${process.version}, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} (timings on a busy machine are noisy; the ratios are measured in this run)`,
    )
    const files = generateCorpus(pages)
    const hugo = await hugoBuild(files)
    const ours = await run(`bench corpus`, files, workers)
    if (hugo === undefined) console.log('hugo not found: apt-get install hugo, for the comparison')
    else {
      console.log(
        `hugo: cold build of the same ${pages} pages in ${(hugo.ms / 1000).toFixed(2)} s${hugo.cpuMs === undefined ? '' : `, ${(hugo.cpuMs / 1000).toFixed(1)} s CPU`}`,
      )
      console.log(
        `docs / hugo: ${(ours.coldMs / hugo.ms).toFixed(2)}x wall${hugo.cpuMs === undefined ? '' : `, ${(ours.coldCpuMs / hugo.cpuMs).toFixed(2)}x CPU`} (target ≤ 2x, stretch 1.5x)`,
      )
    }
    if (existsSync(join(PIPECAT, 'docs.json'))) {
      console.log(
        '\npipecat (a real 472-page site; child process, its own peak RSS; targets: cold < 10 s, edit < 0.5 s, RSS < 500 MB):',
      )
      child(['--site', PIPECAT])
    }
    if (args.includes('--large')) {
      console.log('\n10,000-page build (child process, its own peak RSS; target < 1 GB, linear time):')
      child(['--pages', '10000'])
    }
  }
}
