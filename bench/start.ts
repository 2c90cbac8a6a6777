/**
 * `npm run bench:start`: what starting docs-server costs, in this process: the app built and ready on a
 * fresh data folder (SQLite, migrations run), then closed, `--starts N` times (default 10). Prints the
 * median CPU and wall time of a start, and the CPU of compiling every response serializer the start left
 * for its route's first answer (server/lazy-serializers.ts): what each start paid before they were lazy.
 * The first start also loads the modules; it is printed apart and left out of the medians.
 *
 * Then what a new process pays before it does anything: the median CPU (its own and its threads') of
 * `--imports N` fresh processes (default 9) that import the server's app, and of as many `docsctl
 * --version`, bundled as the package's bin runs it and unbundled: every `docs-server` and `docsctl` start and every test file pays it, and each package
 * loaded on first use instead (lib/lazy-package.ts) takes its share off.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { fromPackageRoot } from '../compiler/assets.js'
import { buildApp } from '../server/app.js'
import { defaultConfig } from '../server/config.js'
import { compilePendingSerializers } from '../server/lazy-serializers.js'

const { values: flags } = parseArgs({ options: { starts: { type: 'string' }, imports: { type: 'string' } } })
const starts = Number(flags.starts ?? 10)
if (!Number.isInteger(starts) || starts < 2) throw new Error('--starts must be a whole number of at least 2')
const imports = Number(flags.imports ?? 9)
if (!Number.isInteger(imports) || imports < 1)
  throw new Error('--imports must be a whole number of at least 1')

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

interface Start {
  cpu: number
  wall: number
  serializers: number
  compileCpu: number
}

async function start(): Promise<Start> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-start-'))
  try {
    const cpu = process.cpuUsage()
    const wall = performance.now()
    const app = await buildApp(defaultConfig({ dataDir, buildWorkers: 1 }))
    await app.ready()
    const started = { cpu: cpuMs(cpu), wall: performance.now() - wall }
    const compile = process.cpuUsage()
    const serializers = compilePendingSerializers()
    const compileCpu = cpuMs(compile)
    await app.close()
    return { ...started, serializers, compileCpu }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

const first = await start()
const rest: Start[] = []
for (let index = 1; index < starts; index++) rest.push(await start())
const ms = (value: number) => `${value.toFixed(0)} ms`
console.log(
  `first start (modules loaded): ${ms(first.cpu)} CPU, ${ms(first.wall)} wall; its ${first.serializers} serializers compiled: ${ms(first.compileCpu)} CPU`,
)
const cpu = median(rest.map((run) => run.cpu))
const compileCpu = median(rest.map((run) => run.compileCpu))
console.log(
  `median of ${rest.length} more starts: ${ms(cpu)} CPU, ${ms(median(rest.map((run) => run.wall)))} wall`,
)
console.log(
  `serializers compiled on first answers instead: ${rest[0]?.serializers ?? 0}, ${ms(compileCpu)} CPU if all compiled at start (${((cpu + compileCpu) / Math.max(cpu, 1)).toFixed(2)}× a start's CPU)`,
)

/** CPU milliseconds a new process spends running `args` to its end (it prints them last). */
async function processCpu(args: string[]): Promise<number> {
  const report =
    "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu ' + (u.user + u.system) / 1000 + '\\n') })"
  const { stderr } = await promisify(execFile)(process.execPath, [
    '--import',
    `data:text/javascript,${encodeURIComponent(report)}`,
    ...args,
  ])
  const used = /cpu ([\d.]+)\s*$/.exec(stderr)?.[1]
  if (used === undefined) throw new Error(`no CPU figure from node ${args.join(' ')}: ${stderr}`)
  return Number(used)
}
const importCpu: number[] = []
const cliCpu: number[] = []
/** The same command from tsc's output, one module at a time: what the bundle (scripts/bundle.ts) saves. */
const unbundledCliCpu: number[] = []
for (let index = 0; index < imports; index++) {
  importCpu.push(
    await processCpu([
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(new URL(`file://${fromPackageRoot('dist', 'server', 'app.js')}`).href)})`,
    ]),
  )
  cliCpu.push(await processCpu([fromPackageRoot('dist', 'bundle', 'cli', 'main.js'), '--version']))
  unbundledCliCpu.push(await processCpu([fromPackageRoot('dist', 'cli', 'main.js'), '--version']))
}
const bare = await processCpu(['-e', '0'])
console.log(
  `a new process (median of ${imports}): importing the server's app ${ms(median(importCpu))} CPU, docsctl --version ${ms(median(cliCpu))} CPU (unbundled ${ms(median(unbundledCliCpu))}, ${(median(unbundledCliCpu) / median(cliCpu)).toFixed(2)}×; node doing nothing: ${ms(bare)})`,
)
