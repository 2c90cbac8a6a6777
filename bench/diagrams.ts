/**
 * `npm run bench:diagrams`: what Mermaid diagrams and Tailwind classes cost a build. The bench:build
 * corpus is built cold three times with the same workers: as it is; with a share of its pages
 * (`--share`, default 0.2) holding a plain ```` ```text ```` block and two images; and with the same
 * pages holding a ```` ```mermaid ```` diagram and a Tailwind `dark:hidden` / `hidden dark:block`
 * image pair instead. Prints CPU time (all threads of the process) and the bytes each build adds.
 * It prints figures; it does not assert.
 */
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { buildSite } from '../compiler/build.js'
import type { SiteFiles } from '../compiler/files.js'
import { generateCorpus } from './build.js'

const DIAGRAM = 'flowchart LR\n  Push --> Build --> Live\n  Build -->|error| Fix --> Push'

const WRITTEN = `\`\`\`text\n${DIAGRAM}\n\`\`\`\n\n<img src="https://example.com/light.png" alt="Light" />\n<img src="https://example.com/dark.png" alt="Dark" />\n`

const DRAWN = `\`\`\`mermaid\n${DIAGRAM}\n\`\`\`\n\n<img className="block dark:hidden" src="https://example.com/light.png" alt="Light" />\n<img className="hidden dark:block" src="https://example.com/dark.png" alt="Dark" />\n`

function withMarkup(files: Map<string, Uint8Array>, share: number, markup: string): number {
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  const every = Math.max(1, Math.round(1 / share))
  let changed = 0
  ;[...files.keys()]
    .filter((path) => path.endsWith('.mdx'))
    .forEach((path, index) => {
      if (index % every !== 0) return
      files.set(path, encoder.encode(`${decoder.decode(files.get(path))}\n${markup}`))
      changed++
    })
  return changed
}

interface ColdBuild {
  cpuMs: number
  wallMs: number
  bytes: number
  files: SiteFiles
}

async function coldBuild(files: Map<string, Uint8Array>, workers: number): Promise<ColdBuild> {
  const start = performance.now()
  const cpu = process.cpuUsage()
  const result = await buildSite(files, { mode: 'lenient', workers })
  const used = process.cpuUsage(cpu)
  let bytes = 0
  for (const content of result.files.values()) bytes += content.byteLength
  return {
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - start,
    bytes,
    files: result.files,
  }
}

const describe = (build: ColdBuild): string =>
  `${(build.cpuMs / 1000).toFixed(2)} s CPU, ${(build.wallMs / 1000).toFixed(2)} s wall, ${(build.bytes / 1e6).toFixed(1)} MB of site files`

const args = process.argv.slice(2)
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const pages = flag('--pages', 500)
const share = flag('--share', 0.2)
const workers = availableParallelism()
console.log(`bench:diagrams on ${workers} cores, node ${process.version}, ${pages} pages`)

// A first build warms the file cache and the JIT, so neither measured build pays for it alone.
await coldBuild(generateCorpus(Math.min(pages, 100)), workers)
const plain = await coldBuild(generateCorpus(pages), workers)
console.log(`plain corpus: ${describe(plain)}`)
const writtenFiles = generateCorpus(pages)
const changed = withMarkup(writtenFiles, share, WRITTEN)
const written = await coldBuild(writtenFiles, workers)
console.log(`with a text block and two images on ${changed} pages: ${describe(written)}`)
const drawnFiles = generateCorpus(pages)
withMarkup(drawnFiles, share, DRAWN)
const drawn = await coldBuild(drawnFiles, workers)
console.log(`with a Mermaid diagram and a Tailwind image pair on those pages: ${describe(drawn)}`)
const html = [...drawn.files].filter(([path]) => path.endsWith('.html'))
const decoder = new TextDecoder()
const loading = html.filter(([, bytes]) => decoder.decode(bytes).includes('/mermaid.')).length
const linking = html.filter(([, bytes]) => decoder.decode(bytes).includes('/tailwind.')).length
const mermaid = [...drawn.files].find(([path]) => /^_assets\/mermaid\./.test(path))?.[1].byteLength ?? 0
const tailwind = [...drawn.files].find(([path]) => /^_assets\/tailwind\./.test(path))?.[1].byteLength ?? 0
console.log(
  `site files added: mermaid bundle ${(mermaid / 1024).toFixed(0)} KiB (loaded by ${loading} pages), Tailwind stylesheet ${tailwind} bytes (linked by ${linking} pages); plain corpus: none`,
)
const extra = drawn.cpuMs - written.cpuMs
console.log(
  `diagrams and Tailwind cost: ${(extra / 1000).toFixed(2)} s CPU = ${((extra / drawn.cpuMs) * 100).toFixed(1)}% of the cold build (${(drawn.cpuMs / written.cpuMs).toFixed(2)}× the same pages without them)`,
)
