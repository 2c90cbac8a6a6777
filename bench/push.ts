/**
 * `npm run bench:push`: a real 470-page site (the pipecat corpus site, copied to a temporary folder;
 * BENCH_SITE names another corpus site) pushed with the real `docsctl push --json --lenient` to a real
 * docs-server, as CI would with a deploy key. Three pushes, side by side with their phase times:
 *   cold push       first push: nothing cached locally, nothing on the server
 *   edit, no cache  a one-line edit with the local check cache removed (every page checked again)
 *   edit, cached    another one-line edit with the check cache of the push before it
 * Target: the cached one-line edit is live in under 10 s.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { ApiClient } from '../cli/api.js'
import type { PhaseName } from '../cli/push/phases.js'
import { formatBytes } from '../cli/push/progress.js'
import { readSiteIdentity } from '../cli/push/project.js'
import { cliBin, startDocsServer } from '../test/cli/helpers/docs-server.js'
import { corpusRoot } from '../test/corpus.js'

const siteName = process.env.BENCH_SITE ?? 'pipecat'
const editedPage = process.env.BENCH_PAGE

interface PushJson {
  ok: boolean
  error?: string
  uploadedFiles: number
  uploadedBytes: number
  totalFiles: number
  phases: Partial<Record<PhaseName, number>>
}

function runPush(siteDir: string, env: NodeJS.ProcessEnv): Promise<PushJson & { wallMs: number }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliBin, 'push', siteDir, '--json', '--lenient'],
      { env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        let parsed: PushJson
        try {
          parsed = JSON.parse(stdout) as PushJson
        } catch {
          reject(new Error(`docsctl push printed no JSON (${error?.message ?? 'no error'}):\n${stderr}`))
          return
        }
        if (!parsed.ok) reject(new Error(`docsctl push failed: ${parsed.error}\n${stderr}`))
        else resolve({ ...parsed, wallMs: performance.now() - started })
      },
    )
  })
}

/** Change one line of a page: a sentence appended to its last paragraph. */
async function editOneLine(siteDir: string, page: string, edition: number): Promise<void> {
  const path = join(siteDir, page)
  const text = await readFile(path, 'utf8')
  await writeFile(path, `${text.trimEnd()} Edited for the push benchmark (${edition}).\n`)
}

const work = await mkdtemp(join(tmpdir(), 'bench-push-'))
const siteDir = join(work, siteName)
const cacheDir = join(work, 'cache')
const server = await startDocsServer()
try {
  await cp(join(corpusRoot, siteName), siteDir, { recursive: true })
  const slug = (await readSiteIdentity(siteDir)).slug ?? `bench-${siteName}`
  const token = await server.tokenFor('bench@example.com')
  const owner = new ApiClient({ apiUrl: server.apiUrl, token: () => token })
  const project = await owner.createProject({ name: 'Bench', slug })
  const { token: deployKey } = await owner.createDeployKey(project.id, 'bench')
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CI: 'true',
    DOCSCTL_API_URL: server.apiUrl,
    DOCSCTL_API_KEY: deployKey,
    DOCSCTL_PROJECT: slug,
    DOCSCTL_CACHE_DIR: cacheDir,
    DOCSCTL_BRANCH: 'main',
    DOCSCTL_COMMIT_MESSAGE: 'bench',
  }
  const edited =
    editedPage ??
    (await readdir(siteDir, { recursive: true, encoding: 'utf8' }))
      .filter((name) => name.endsWith('.mdx') && !name.startsWith('snippets/'))
      .sort()[0]!

  const cold = await runPush(siteDir, env)
  await editOneLine(siteDir, edited, 1)
  await rm(cacheDir, { recursive: true, force: true })
  const uncached = await runPush(siteDir, env)
  await editOneLine(siteDir, edited, 2)
  const cached = await runPush(siteDir, env)

  const seconds = (ms: number | undefined) => (ms === undefined ? '—' : (ms / 1000).toFixed(2)).padStart(7)
  const phases: PhaseName[] = ['read', 'validate', 'upload', 'build', 'live']
  console.log(
    `docsctl push of ${siteName} (${cold.totalFiles} files) to docs-server at ${server.apiUrl}; edited ${edited}`,
  )
  console.log(`${''.padEnd(16)}${phases.map((phase) => phase.padStart(9)).join('')}   uploaded`)
  for (const [label, run] of [
    ['cold push', cold],
    ['edit, no cache', uncached],
    ['edit, cached', cached],
  ] as const)
    console.log(
      `${label.padEnd(16)}${phases.map((phase) => `${seconds(run.phases[phase])} s`).join('')}   ${run.uploadedFiles} files, ${formatBytes(run.uploadedBytes)}  (wall ${seconds(run.wallMs)} s)`,
    )
  const live = cached.wallMs
  console.log(
    `one-line edit → live with the check cache: ${(live / 1000).toFixed(2)} s wall (target < 10 s: ${live < 10_000 ? 'met' : 'missed'})`,
  )
} finally {
  await server.stop()
  await rm(work, { recursive: true, force: true })
}
