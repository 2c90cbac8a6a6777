#!/usr/bin/env node
// `node test/run.js [--unit | --slow] [substring…]` runs the compiled test files with node's test runner. Node 20 takes no globs, so list them here.
// `npm test` runs every file but the slow tier; --slow (`npm run test:slow`, which CI runs after `npm test`) runs only
// the slow tier: files that spend minutes proving one thing end to end (below), runnable by name like any other.
// --unit is the fast tier (test/tier.ts): no test/e2e/, no files named `*browser*`, no `corpus*.test` files
// (minutes of real-world sites), and DOCS_TEST_TIER=unit so tests that need PostgreSQL, Chromium or a
// built binary skip themselves.
// Files run in parallel processes (DOCS_TEST_CONCURRENCY, default one more than the cores): most of the
// suite waits on servers, browsers and child processes rather than the CPU, so three at a time on two cores
// roughly halves the wall time. The longest files start first so they overlap the rest instead of trailing
// at the end. Every test gets its own data folder, PostgreSQL schema and free ports, so parallel files never
// share state.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = 'dist/test'
const args = process.argv.slice(2)
const unit = args.includes('--unit')
const slow = args.includes('--slow')
const only = args.filter((arg) => arg !== '--unit' && arg !== '--slow')
/**
 * The slow tier, each with why it is slow. `npm run test:slow` runs them; naming one runs it too
 * (`node test/run.js readme-walkthrough`).
 */
const slowTier = [
  // `npm ci` and `npm start` in a fresh clone, then the CLI in a real terminal: two minutes of CPU.
  join(root, 'e2e', 'readme-walkthrough.test.js'),
  // Two of the largest corpus sites built by `docsctl build` and pushed through a server, every file compared.
  join(root, 'e2e', 'corpus-api-sites.test.js'),
  // One page of 15,000 components in one thread under the command-line heap limit: fifteen seconds of CPU.
  join(root, 'compiler', 'build', 'page-heap.test.js'),
  // `npm pack`, then the tarball installed into an empty folder and both binaries run from there: a minute.
  join(root, 'e2e', 'package.test.js'),
  // Builds beside a busy thread on every core, on purpose: every file running beside it slows down too.
  join(root, 'compiler', 'corpus-determinism.test.js'),
  // A cluster per file: three replicas on PostgreSQL and S3, 20 concurrent pushes, one replica killed
  // mid-build, every database connection cut under read load (`npm run test:scale` for the long setting).
  join(root, 'e2e', 'scale.test.js'),
  // Every page of 13 navigation shapes clicked in Chromium, about 300 page loads; npm test proves the same
  // reachability from the built HTML (test/compiler/config/navigation-shapes.test.ts).
  join(root, 'e2e', 'navigation.test.js'),
]
/** @param {string} file */
const inUnitTier = (file) =>
  !file.startsWith(join(root, 'e2e') + sep) &&
  !basename(file).includes('browser') &&
  !basename(file).startsWith('corpus')
/** @param {string} dir @returns {string[]} */
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(join(dir, entry.name))
      : entry.name.endsWith('.test.js')
        ? [join(dir, entry.name)]
        : [],
  )
/**
 * Files that take minutes: started first, in this order. The dashboard's walk in Chromium is one long
 * chain of page loads, 19 s on an idle machine and up to 77 s beside the rest of the suite: started
 * later, it was the run's last minute.
 */
const slowFirst = ['readme-walkthrough', 'dashboard-browser', 'corpus', 'e2e', 'browser']
/** @param {string} file */
const slowness = (file) => {
  const index = slowFirst.findIndex((part) => file.includes(part))
  return index === -1 ? slowFirst.length : index
}
/**
 * Files that may share a process with others, and how many to a process. Each test file's process
 * loads tsc's output of what it tests, most of a CPU-second for the server (fastify and every route) and
 * a third of one for the compiler, before its first test; files that call functions and start servers
 * in their own process run GROUP_SIZE to a process, one after another (node:test runs a process's
 * top-level tests in order, and reports each test under the file that defines it), and pay that once.
 * A file runs alone when it is long or drives other processes (end to end, edge, browsers, corpus
 * sites: started first, they overlap the rest), or when its code changes what every test of its process
 * shares: hooks at its top level (they would run around other files' tests), the environment, the
 * working folder, module mocks or process handlers; or when it reads the process's peak memory (`maxRSS`),
 * which another file's tests would have set.
 */
const GROUP_SIZE = 8
const sharesProcess =
  /^(before|after|beforeEach|afterEach)\(|process\.env(\.\w+|\[[^\]]+\]) =|delete process\.env|process\.chdir|process\.umask|mock\.(module|method|timers)|process\.exit\(|process\.on\(|maxRSS/m
/** @param {string} file */
const runsAlone = (file) =>
  slowness(file) < slowFirst.length || sharesProcess.test(readFileSync(file, 'utf8'))

const files = walk(root)
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .filter((file) => !unit || inUnitTier(file))
  .filter((file) => only.length > 0 || slowTier.includes(file) === slow)
  .sort((a, b) => slowness(a) - slowness(b) || a.localeCompare(b))
if (files.length === 0) {
  console.error(`no test files under ${root}${only.length ? ` matching ${only.join(', ')}` : ''}`)
  process.exit(1)
}
const concurrency = Number(process.env.DOCS_TEST_CONCURRENCY ?? availableParallelism() + 1)
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(
    `DOCS_TEST_CONCURRENCY must be a whole number of at least 1, not ${process.env.DOCS_TEST_CONCURRENCY}`,
  )
  process.exit(1)
}
const timingFile = join(mkdtempSync(join(tmpdir(), 'docs-test-timing-')), 'timing.json')
const cpuFile = join(dirname(timingFile), 'cpu.jsonl')
const processes = processesFor(files, dirname(timingFile))
const runnerArgs = [
  // Each test file's process reports the CPU seconds it and its children used (test/cpu-usage.js).
  '--import',
  new URL('./cpu-usage.js', import.meta.url).href,
  '--test',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${new URL('./timing-reporter.js', import.meta.url).href}`,
  `--test-reporter-destination=${timingFile}`,
  `--test-concurrency=${concurrency}`,
  ...processes.keys(),
]
const started = Date.now()
// Corpus sites are built once per run into this folder and shared by the files that read them (test/corpus-build.ts).
const cacheDir = dirname(timingFile)
const result = spawnSync(process.execPath, runnerArgs, {
  stdio: 'inherit',
  env: {
    ...process.env,
    DOCS_TEST_CACHE: cacheDir,
    DOCS_TEST_CPU_FILE: cpuFile,
    ...(unit ? { DOCS_TEST_TIER: 'unit' } : {}),
  },
})
printSlowest(timingFile, cpuFile, processes, (Date.now() - started) / 1000)
rmSync(cacheDir, { recursive: true, force: true })
process.exit(result.status ?? 1)

/**
 * The processes to run, in the order they start: each an entry file written to `dir` that imports its
 * test files in order, first the files that run alone (longest first, by `slowness`), then the groups.
 * node's runner starts the files it is given in the order of their paths, whatever order they are given
 * in, so the entries' names carry the order.
 * @param {string[]} files @param {string} dir
 * @returns {Map<string, string[]>} each entry file, and the test files it runs
 */
function processesFor(files, dir) {
  const alone = files.filter(runsAlone)
  const shared = files.filter((file) => !alone.includes(file)).sort()
  const groups = []
  for (let start = 0; start < shared.length; start += GROUP_SIZE)
    groups.push(shared.slice(start, start + GROUP_SIZE))
  /** @type {Map<string, string[]>} */
  const processes = new Map()
  for (const members of [...alone.map((file) => [file]), ...groups]) {
    const name = members.length === 1 ? basename(members[0] ?? '') : `group-of-${members.length}.test.js`
    const entry = join(dir, `${String(processes.size + 1).padStart(3, '0')}-${name}`)
    const imports = members.map((file) => `import ${JSON.stringify(pathToFileURL(resolve(file)).href)}\n`)
    writeFileSync(entry, `// test/run.js: run in one process, one after another.\n${imports.join('')}`)
    processes.set(entry, members)
  }
  return processes
}

/**
 * The 15 test files that cost most CPU (their process and the children it waited for), with the time of
 * their tests, and the run's wall time and CPU. CPU ranks them because it does not depend on what else the
 * machine runs; the wall time is what a developer waits. A process that ran a group of files measured
 * the group: each of its files gets a share in proportion to the time of its tests, marked `~`.
 * @param {string} timing @param {string} cpu @param {Map<string, string[]>} processes @param {number} seconds
 */
function printSlowest(timing, cpu, processes, seconds) {
  /** @type {Record<string, number>} */
  let wallMs = {}
  /** @type {Map<string, number>} */
  const cpuSeconds = new Map()
  /** @type {Set<string>} */
  const shared = new Set()
  try {
    wallMs = JSON.parse(readFileSync(timing, 'utf8'))
  } catch {
    return
  }
  try {
    for (const line of readFileSync(cpu, 'utf8').split('\n')) {
      if (!line) continue
      const { file, seconds: used } = JSON.parse(line)
      const members = processes.get(file) ?? [file]
      const paths = members.map((member) => resolve(member))
      const total = paths.reduce((sum, path) => sum + (wallMs[path] ?? 0), 0)
      for (const path of paths) {
        const share = total > 0 ? (wallMs[path] ?? 0) / total : 1 / paths.length
        cpuSeconds.set(path, (cpuSeconds.get(path) ?? 0) + used * share)
        if (members.length > 1) shared.add(path)
      }
    }
  } catch {
    // No file finished (or none reported): the wall times alone.
  }
  const files = [...new Set([...Object.keys(wallMs), ...cpuSeconds.keys()])]
  const slowest = files
    .sort(
      (a, b) => (cpuSeconds.get(b) ?? 0) - (cpuSeconds.get(a) ?? 0) || (wallMs[b] ?? 0) - (wallMs[a] ?? 0),
    )
    .slice(0, 15)
  const totalCpu = [...cpuSeconds.values()].reduce((sum, used) => sum + used, 0)
  console.log(
    `\nCostliest test files (of ${files.length}, in ${processes.size} processes; ${seconds.toFixed(0)} s wall and ${totalCpu.toFixed(0)} CPU-s in all):`,
  )
  /** @param {string} path */
  const row = (path) =>
    `${shared.has(path) ? '~' : ' '}${(cpuSeconds.get(path) ?? 0).toFixed(1).padStart(6)} ${((wallMs[path] ?? 0) / 1000).toFixed(1).padStart(8)}  ${relative(process.cwd(), path)}`
  console.log('  CPU s   wall s  file')
  for (const path of slowest) console.log(row(path))
  // Time a file's tests spent waiting (timers, other processes, the other files on the cores): where a
  // test sleeps instead of taking an injected clock, it shows here.
  /** @param {string} path */
  const waiting = (path) => (wallMs[path] ?? 0) / 1000 - (cpuSeconds.get(path) ?? 0)
  const waiters = [...files].sort((a, b) => waiting(b) - waiting(a)).slice(0, 5)
  console.log('The five that waited most (wall time less CPU):')
  for (const path of waiters) console.log(row(path))
}
