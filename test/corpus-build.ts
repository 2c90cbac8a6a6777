/**
 * One lenient build of each corpus site per test run, shared by every test file that reads it. `node
 * test/run.js` sets DOCS_TEST_CACHE to a folder it removes when the run ends: the first file that asks
 * for a site takes its lock, builds it and writes the result there; a file asking meanwhile waits for
 * that result instead of building the site again (the lock names its holder's pid, so a file that died
 * holding it is noticed and its build retried). Run alone, without DOCS_TEST_CACHE, a test file builds
 * each site once and keeps it in memory.
 *
 * The build is the compiler's own (`buildSite`, lenient), rendered in this thread: a test run already
 * keeps every core busy with three files at a time, and render workers each warm up the highlighter and
 * parsers again, so on two cores a pool spent twice the CPU for no gain in wall time (pipecat: 42 CPU-s
 * against 26). A test that compares another path's output with it (the CLI's export through the
 * pool, a build under load) so also proves the pool and this thread render alike.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { deserialize, serialize } from 'node:v8'
import { buildSite } from '../compiler/build.js'
import type { SiteFiles } from '../compiler/files.js'
import type { BuildResult } from '../compiler/types.js'
import { readSiteFiles } from '../lib/site-dir.js'
import { corpusRoot, type corpusSites } from './corpus.js'

export type CorpusSite = (typeof corpusSites)[number]

/** What a test reads of a site's build: its sources, and the build's files and diagnostics. */
export interface CorpusBuild {
  sources: SiteFiles
  result: Pick<BuildResult, 'ok' | 'files' | 'diagnostics' | 'hashedAssets'>
}

const inMemory = new Map<CorpusSite, Promise<CorpusBuild>>()

/** The site's lenient build, made once per test run. */
export function builtCorpusSite(site: CorpusSite): Promise<CorpusBuild> {
  let build = inMemory.get(site)
  if (!build) {
    const cache = process.env.DOCS_TEST_CACHE
    build = cache ? sharedBuild(cache, site) : buildNow(site)
    inMemory.set(site, build)
  }
  return build
}

async function buildNow(site: CorpusSite): Promise<CorpusBuild> {
  const { files: sources } = await readSiteFiles(join(corpusRoot, site))
  const { ok, files, diagnostics, hashedAssets } = await buildSite(sources, { mode: 'lenient' })
  return { sources, result: { ok, files, diagnostics, hashedAssets } }
}

/** How often a file waiting for another's build looks for it: the builds take seconds to minutes. */
const POLL_MS = 250

async function sharedBuild(cache: string, site: CorpusSite): Promise<CorpusBuild> {
  const done = join(cache, `corpus-${site}.v8`)
  const lock = join(cache, `corpus-${site}.lock`)
  for (;;) {
    const finished = readIfThere(done)
    if (finished) return deserialize(finished) as CorpusBuild
    if (takeLock(lock)) {
      try {
        const build = await buildNow(site)
        writeFileSync(`${done}.partial`, serialize(build))
        renameSync(`${done}.partial`, done)
        return build
      } finally {
        rmSync(lock, { recursive: true, force: true })
      }
    }
    await delay(POLL_MS)
  }
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Takes the lock folder, or breaks it when the process that holds it is gone. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock)
    writeFileSync(join(lock, 'pid'), String(process.pid))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const holder = Number(readIfThere(join(lock, 'pid'))?.toString())
  if (Number.isInteger(holder) && holder > 0 && !isAlive(holder)) {
    rmSync(lock, { recursive: true, force: true })
  }
  return false
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
