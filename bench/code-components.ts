/**
 * `npm run bench:code-components`: what components defined in code cost. The bench:build corpus is
 * built cold three times with the same workers: as it is, with a share of its pages (`--share`,
 * default 0.2) holding some markup written out, and with the same pages making that markup with three
 * code components (one defined in the page, two imported from a `.jsx` snippet). Prints both times and the sandbox's share of the cold build, in CPU
 * time (all threads of the process), which a busy machine disturbs far less than wall time.
 * It prints figures; it does not assert.
 */
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { buildSite } from '../compiler/build.js'
import { generateCorpus } from './build.js'

const SNIPPET = `const COLORS = { get: 'green', post: 'blue', delete: 'red' }

export const Verb = ({ method, path }) => (
  <span className={\`verb verb-\${COLORS[method] ?? 'gray'}\`}>
    <code>{method.toUpperCase()}</code> {path}
  </span>
)

export const Endpoints = ({ endpoints }) => (
  <ul>
    {endpoints.map(([method, path]) => (
      <li key={path}>
        <Verb method={method} path={path} />
      </li>
    ))}
  </ul>
)
`

const USAGE = `
import { Endpoints, Verb } from "/snippets/api.jsx";

export const Plan = ({ name, price, children }) => (
  <Card title={name.toUpperCase()}>{price === 0 ? <Badge>Free</Badge> : \`$\${price} a month\`} {children}</Card>
)

<Plan name="Team" price={20}>For small teams.</Plan>

Call <Verb method="post" path="/items" /> to add one.

<Endpoints endpoints={[["get", "/items"], ["delete", "/items/{id}"]]} />
`

/** What USAGE renders, written out: the same HTML without a sandbox. */
const WRITTEN_OUT = `
<Card title="TEAM">$20 a month For small teams.</Card>

Call <span className="verb verb-blue"><code>POST</code> /items</span> to add one.

<ul>
  <li><span className="verb verb-green"><code>GET</code> /items</span></li>
  <li><span className="verb verb-red"><code>DELETE</code> {'/items/{id}'}</span></li>
</ul>
`

function withExtraMarkup(files: Map<string, Uint8Array>, share: number, markup: string): number {
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  files.set('snippets/api.jsx', encoder.encode(SNIPPET))
  const pages = [...files.keys()].filter((path) => path.endsWith('.mdx'))
  const every = Math.max(1, Math.round(1 / share))
  let changed = 0
  pages.forEach((path, index) => {
    if (index % every !== 0) return
    const source = decoder.decode(files.get(path))
    // After the front matter, so the imports are ESM at the top of the body.
    files.set(path, encoder.encode(source.replace(/\n---\n/, `\n---\n${markup}\n`)))
    changed++
  })
  return changed
}

interface ColdBuild {
  /** CPU time of every thread of the process, in ms. */
  cpuMs: number
  wallMs: number
  warnings: number
}

async function coldBuild(files: Map<string, Uint8Array>, workers: number): Promise<ColdBuild> {
  const start = performance.now()
  const cpu = process.cpuUsage()
  const result = await buildSite(files, { mode: 'lenient', workers })
  const used = process.cpuUsage(cpu)
  return {
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - start,
    warnings: result.diagnostics.length,
  }
}

const describe = (build: ColdBuild): string =>
  `${(build.cpuMs / 1000).toFixed(2)} s CPU, ${(build.wallMs / 1000).toFixed(2)} s wall (${build.warnings} diagnostics)`

const args = process.argv.slice(2)
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const pages = flag('--pages', 1000)
const share = flag('--share', 0.2)
const workers = availableParallelism()
console.log(`bench:code-components on ${workers} cores, node ${process.version}, ${pages} pages`)

// A first build warms the file cache and the JIT, so neither measured build pays for it alone.
await coldBuild(generateCorpus(Math.min(pages, 100)), workers)
const plain = await coldBuild(generateCorpus(pages), workers)
console.log(`plain corpus: ${describe(plain)}`)
const writtenFiles = generateCorpus(pages)
const changed = withExtraMarkup(writtenFiles, share, WRITTEN_OUT)
const written = await coldBuild(writtenFiles, workers)
console.log(`with the markup written out on ${changed} pages: ${describe(written)}`)
const codedFiles = generateCorpus(pages)
withExtraMarkup(codedFiles, share, USAGE)
const coded = await coldBuild(codedFiles, workers)
console.log(`with the markup made by 3 code components on each of those pages: ${describe(coded)}`)
const extra = coded.cpuMs - written.cpuMs
console.log(
  `sandbox cost: ${(extra / 1000).toFixed(2)} s CPU = ${((extra / coded.cpuMs) * 100).toFixed(1)}% of the cold build, ${(extra / changed).toFixed(1)} ms CPU a page that uses it`,
)
