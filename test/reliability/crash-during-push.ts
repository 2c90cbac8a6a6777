/**
 * Crash during a push, on SQLite: a real `docs-server` is SIGKILLed at a random point of a push (mid-batch
 * upload, during finalize, mid-build, during promote), then started again on the same data folder. After
 * every crash: the database passes `PRAGMA integrity_check` and `foreign_key_check`; every page of the live
 * site is exactly the previous release or exactly the new one (each release's pages and image say its
 * number); every blob a ready deployment's manifests name exists and hashes to its name; the interrupted
 * build is finished or failed with a reason; and a retried `docsctl push` succeeds. At the end, uploads
 * the crashes abandoned are expired (the sweep run with a clock past the expiry) and every deployment has
 * ended ready or failed with a reason.
 */
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { buildApp } from '../../server/app.js'
import { FilesystemBlobStore } from '../../server/blobs/filesystem.js'
import { readSiteManifest } from '../../server/builds/site-manifest-store.js'
import { defaultConfig } from '../../server/config.js'
import { UploadExpiry } from '../../server/deployments/upload-expiry.js'
import { cleanEnv, runCli } from '../cli/helpers/docs-server.js'
import { manifestOf, multipartBody } from '../server/helper.js'
import { evidence } from './evidence.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite, type SuiteContext } from './suite.js'

export type KillPoint = 'mid-batch' | 'finalize' | 'mid-build' | 'promote'
const killPoints: readonly KillPoint[] = ['mid-batch', 'finalize', 'mid-build', 'promote']

const slug = 'crash-docs'
const encode = (text: string) => new TextEncoder().encode(text)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Page paths of every release: the site's shape never changes, only the release number in it. */
const pageSlugs = (pages: number) =>
  Array.from({ length: pages }, (_, index) => (index === 0 ? 'index' : `page-${index}`))
const urlOf = (pageSlug: string) => (pageSlug === 'index' ? '/' : `/${pageSlug}/`)

/** A site whose every page and its one image say `release-<release>`. */
export function releaseSite(release: number, pages: number): Map<string, Uint8Array> {
  const slugs = pageSlugs(pages)
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Crash test', navigation: { pages: slugs } }))],
    [
      'images/release.svg',
      encode(
        `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="20"><text y="15">release-${release}</text></svg>\n`,
      ),
    ],
  ])
  for (const [index, pageSlug] of slugs.entries()) {
    const image = index === 0 ? '![The release](/images/release.svg)\n\n' : ''
    const prose = `Paragraph ${index} of release-${release}, with **bold**, \`code\` and a [link](/index). `
    files.set(
      `${pageSlug}.mdx`,
      encode(
        `---\ntitle: Page ${index}\n---\n\nThis page belongs to release-${release}.\n\n${image}${prose.repeat(30)}\n\n\`\`\`ts\nconst release = ${release}\n\`\`\`\n`,
      ),
    )
  }
  return files
}

interface Push {
  deploymentId: string | undefined
  /** How far the push got before the kill: for the figures and failure messages. */
  reached: string
}

/** An upload request whose body is written in pieces; the server is killed after `killAfter` pieces. */
function uploadInPieces(
  server: ServerProcess,
  path: string,
  token: string,
  body: { payload: Buffer; headers: Record<string, string> },
  pieces: number,
  killAfter: number,
): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request({
      port: server.port,
      host: '127.0.0.1',
      method: 'POST',
      path,
      agent: false,
      headers: {
        host: server.baseDomain,
        authorization: `Bearer ${token}`,
        'content-length': body.payload.length,
        ...body.headers,
      },
    })
    // Answers the status, or 0 when the kill cut the request off.
    outgoing.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', () => resolve(0))
    })
    outgoing.on('error', () => resolve(0))
    const size = Math.ceil(body.payload.length / pieces)
    void (async () => {
      for (let piece = 0; piece < pieces; piece++) {
        if (piece === killAfter) {
          await server.kill()
          return
        }
        const chunk = body.payload.subarray(piece * size, (piece + 1) * size)
        await new Promise<void>((done) => outgoing.write(chunk, () => done()))
        // Let the server read and store what came, so the kill finds it part-way through the batch.
        await new Promise((done) => setTimeout(done, 5))
      }
      outgoing.end()
    })()
  })
}

const randomMs = (max: number) => Math.floor(Math.random() * max)

/** Create a deployment of `files` and upload what the server lacks, unless `killMidBatch` says when to die. */
async function createAndUpload(
  server: ServerProcess,
  token: string,
  files: Map<string, Uint8Array>,
  killMidBatch?: { pieces: number; after: number },
): Promise<{ deploymentId: string; reached: string; uploaded: boolean }> {
  const created = await server.api('POST', `/projects/slug/${slug}/deployments`, token, {
    branch: 'main',
    commitMessage: 'crash test',
    files: manifestOf(files),
  })
  if (created.status !== 201) throw new Error(`create deployment: ${created.status} ${created.text()}`)
  const { deployment, missing } = created.json<{ deployment: { id: string }; missing: string[] }>()
  const wanted = new Set(missing)
  const parts = [...files]
    .filter(([, bytes]) => wanted.has(sha256(bytes)))
    .map(([name, bytes]) => ({ name, bytes }))
  const body = multipartBody(parts)
  const path = `/projects/slug/${slug}/deployments/${deployment.id}/files/batch`
  if (killMidBatch) {
    await uploadInPieces(server, path, token, body, killMidBatch.pieces, killMidBatch.after)
    return { deploymentId: deployment.id, reached: 'mid-batch', uploaded: false }
  }
  const status = await uploadInPieces(server, path, token, body, 1, -1)
  if (status !== 200) throw new Error(`upload: ${status}`)
  return { deploymentId: deployment.id, reached: 'uploaded', uploaded: true }
}

/** A push of `files` with a SIGKILL at `point`, a random moment inside that step. */
async function pushAndKill(
  server: ServerProcess,
  token: string,
  files: Map<string, Uint8Array>,
  point: KillPoint,
  buildMs: number,
): Promise<Push> {
  const base = `/projects/slug/${slug}/deployments`
  if (point === 'mid-batch') {
    const pieces = 24
    return createAndUpload(server, token, files, { pieces, after: 1 + randomMs(pieces - 1) })
  }
  const { deploymentId } = await createAndUpload(server, token, files)
  const finalize = (promote: boolean, waitSeconds: number) =>
    server.api('POST', `${base}/${deploymentId}/finalize`, token, { promote, waitSeconds })
  if (point === 'finalize') {
    const answered = finalize(true, 60).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, randomMs(40)))
    await server.kill()
    await answered
    return { deploymentId, reached: 'finalize' }
  }
  if (point === 'mid-build') {
    const started = await finalize(true, 0)
    if (started.status !== 202 && started.status !== 200)
      throw new Error(`finalize: ${started.status} ${started.text()}`)
    // Anywhere from the start of the build to a little past its usual end: the last moments are its
    // promotion, in the same transaction that records it.
    await new Promise((resolve) => setTimeout(resolve, randomMs(Math.max(50, buildMs * 1.3))))
    await server.kill()
    return { deploymentId, reached: `mid-build (${started.status === 200 ? 'built already' : 'building'})` }
  }
  const built = await finalize(false, 60)
  if (built.status !== 200) throw new Error(`finalize without promote: ${built.status} ${built.text()}`)
  const promoted = server.api('POST', `${base}/${deploymentId}/promote`, token).catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, randomMs(15)))
  await server.kill()
  await promoted
  return { deploymentId, reached: 'promote' }
}

/** The release every page of the live site says, or why it is not one release. */
async function liveRelease(
  server: ServerProcess,
  pages: number,
): Promise<{ release?: number; problem?: string; pagesRead: number }> {
  const seen = new Map<string, number>()
  const paths = [...pageSlugs(pages).map(urlOf), '/images/release.svg']
  for (const path of paths) {
    const answer = await server.site(slug, path)
    if (answer.status === 404 && seen.size === 0 && path === '/') return { pagesRead: 1 }
    if (answer.status !== 200) return { problem: `${path} answered ${answer.status}`, pagesRead: seen.size }
    const releases = new Set([...answer.text().matchAll(/release-(\d+)/g)].map((match) => Number(match[1])))
    if (releases.size !== 1)
      return { problem: `${path} says releases ${[...releases]}`, pagesRead: seen.size }
    seen.set(path, [...releases][0]!)
  }
  const releases = new Set(seen.values())
  if (releases.size !== 1)
    return {
      problem: `pages of different releases: ${[...seen].map(([path, release]) => `${path}=${release}`).join(', ')}`,
      pagesRead: seen.size,
    }
  return { release: [...releases][0]!, pagesRead: seen.size }
}

interface DeploymentState {
  id: string
  status: string
  error: string | null
  site_manifest_sha256: string | null
  build_cache_sha256: string | null
}

function openDatabase(server: ServerProcess, readonly: boolean): SqliteDatabase.Database {
  return new SqliteDatabase(join(server.dataDir, 'docs.sqlite'), { readonly, fileMustExist: true })
}

/** `PRAGMA integrity_check` and `foreign_key_check` on the files a killed server left. */
function databaseProblems(server: ServerProcess): string[] {
  const db = openDatabase(server, false)
  try {
    const integrity = db.pragma('integrity_check', { simple: true })
    const foreignKeys = db.pragma('foreign_key_check') as unknown[]
    return [
      ...(integrity === 'ok' ? [] : [`integrity_check: ${String(integrity)}`]),
      ...(foreignKeys.length ? [`foreign_key_check: ${JSON.stringify(foreignKeys.slice(0, 3))}`] : []),
    ]
  } finally {
    db.close()
  }
}

function deployments(server: ServerProcess): DeploymentState[] {
  const db = openDatabase(server, true)
  try {
    return db
      .prepare(
        'select id, status, error, site_manifest_sha256, build_cache_sha256 from deployments order by created_at',
      )
      .all() as DeploymentState[]
  } finally {
    db.close()
  }
}

/** Every blob a ready deployment names (sources, site manifest, its files and variants) present and whole. */
async function missingBlobs(server: ServerProcess): Promise<{ problems: string[]; checked: number }> {
  const store = new FilesystemBlobStore(join(server.dataDir, 'blobs'))
  const problems: string[] = []
  let checked = 0
  const verify = async (name: string, hash: string) => {
    checked++
    const bytes = await store.get(hash)
    if (!bytes) problems.push(`${name}: blob ${hash.slice(0, 12)} is missing`)
    else if (sha256(bytes) !== hash) problems.push(`${name}: blob ${hash.slice(0, 12)} hashes otherwise`)
    return bytes
  }
  const db = openDatabase(server, true)
  const sources = db.prepare('select path, sha256 from deployment_files where deployment_id = ?')
  try {
    for (const deployment of deployments(server).filter((row) => row.status === 'ready')) {
      for (const file of sources.all(deployment.id) as { path: string; sha256: string }[])
        await verify(`${deployment.id} source ${file.path}`, file.sha256)
      if (deployment.build_cache_sha256)
        await verify(`${deployment.id} build cache`, deployment.build_cache_sha256)
      if (!deployment.site_manifest_sha256) {
        problems.push(`${deployment.id} is ready without a site manifest`)
        continue
      }
      // The head and every shard, each checked against its hash as it is read.
      const read = await readSiteManifest(
        { get: (hash) => verify(`${deployment.id} site manifest part`, hash) },
        deployment.site_manifest_sha256,
      )
      if (!read) continue
      const { manifest } = read
      for (const [path, entry] of Object.entries(manifest.files)) {
        await verify(`${deployment.id} ${path}`, entry.sha256)
        if (entry.br) await verify(`${deployment.id} ${path} (br)`, entry.br.sha256)
        if (entry.gzip) await verify(`${deployment.id} ${path} (gzip)`, entry.gzip.sha256)
      }
    }
  } finally {
    db.close()
  }
  return { problems, checked }
}

/** Poll until no deployment is building (the restarted server retakes the build after its lease). */
async function settled(server: ServerProcess, timeoutMs: number): Promise<DeploymentState[]> {
  const started = performance.now()
  for (;;) {
    const rows = deployments(server)
    if (!rows.some((row) => row.status === 'building')) return rows
    if (performance.now() - started > timeoutMs) return rows
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function writeSite(dir: string, files: Map<string, Uint8Array>): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  for (const [path, bytes] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), bytes)
  }
}

export const crashDuringPush: Suite = {
  name: 'crash during push (SQLite)',
  async run({ counts, say, setting }: SuiteContext) {
    const cases = new Cases()
    const pages = setting === 'long' ? 24 : 12
    // A 2 s lease: a build the crash interrupted is retaken 2 s after the restart, not 30 s.
    const server = await ServerProcess.create('crash', ['--build-lease', '2', '--build-workers', '1'])
    const siteDir = await mkdtemp(join(tmpdir(), 'docs-reliability-site-'))
    const outcomes = { kept: 0, advanced: 0, buildsFinished: 0, buildsFailed: 0, abandoned: 0, retried: 0 }
    const reached = new Map<string, number>()
    let restartMs = 0
    let blobsChecked = 0
    try {
      await server.start()
      const token = await server.token('crash@example.com')
      const project = await server.api('POST', '/projects/', token, { name: 'Crash test', slug })
      if (project.status !== 201) throw new Error(`create project: ${project.status} ${project.text()}`)
      const projectId = project.json<{ id: string }>().id
      const key = await server.api('POST', `/projects/${projectId}/deploy-keys`, token, { name: 'ci' })
      const deployKey = key.json<{ token: string }>().token
      evidence.secret('deploy key', deployKey)
      evidence.outputs.pop() // the one response whose purpose is to hand the key over
      const cliEnv = cleanEnv({ DOCSCTL_API_KEY: deployKey, DOCSCTL_API_URL: server.apiUrl, CI: 'true' })

      const cliPush = async (release: number) => {
        await writeSite(siteDir, releaseSite(release, pages))
        const run = await runCli(['push', siteDir, '--project', slug], { env: cliEnv })
        evidence.output(`crash: docsctl push release ${release}`, run.stdout + run.stderr)
        return run
      }
      // Release 1 goes live cleanly; its build time sets the range of the mid-build kills.
      const started = performance.now()
      const first = await cliPush(1)
      const buildMs = performance.now() - started
      if (first.code !== 0) throw new Error(`first push failed: ${first.stderr}`)
      let live = 1

      for (let crash = 0; crash < counts.crashes; crash++) {
        const release = crash + 2
        const point = killPoints[crash % killPoints.length]!
        const where = `crash ${crash + 1} (${point}, release ${release})`
        const push = await pushAndKill(server, token, releaseSite(release, pages), point, buildMs).catch(
          (error: unknown) => {
            cases.fail(`${where}: the push failed before the kill: ${(error as Error).message}`)
            return { deploymentId: undefined, reached: 'error' } satisfies Push
          },
        )
        await server.kill()
        reached.set(push.reached, (reached.get(push.reached) ?? 0) + 1)
        const damage = databaseProblems(server)
        cases.check(damage.length === 0, () => `${where}: ${damage.join('; ')}`)

        const restarted = performance.now()
        await server.start()
        restartMs += performance.now() - restarted
        const atRestart = await liveRelease(server, pages)
        cases.check(
          atRestart.problem === undefined && (atRestart.release === live || atRestart.release === release),
          () =>
            `${where}: after the restart the site ${atRestart.problem ?? `says release ${atRestart.release}`}, expected exactly ${live} or ${release}`,
        )

        const rows = await settled(server, 120_000)
        const interrupted = rows.find((row) => row.id === push.deploymentId)
        cases.check(
          interrupted?.status !== 'building',
          () => `${where}: the interrupted build is still building 120 s after the restart`,
        )
        const wasBuilding = point === 'finalize' || point === 'mid-build'
        if (interrupted?.status === 'failed') {
          outcomes.buildsFailed++
          cases.check(
            Boolean(interrupted.error),
            () => `${where}: the interrupted deployment failed without a reason`,
          )
        } else if (interrupted?.status === 'ready' && wasBuilding) outcomes.buildsFinished++
        const afterSettling = await liveRelease(server, pages)
        cases.check(
          afterSettling.problem === undefined &&
            (afterSettling.release === live || afterSettling.release === release),
          () =>
            `${where}: once settled the site ${afterSettling.problem ?? `says release ${afterSettling.release}`}, expected exactly ${live} or ${release}`,
        )
        if (afterSettling.release === release) outcomes.advanced++
        else outcomes.kept++

        const blobs = await missingBlobs(server)
        blobsChecked += blobs.checked
        cases.check(blobs.problems.length === 0, () => `${where}: ${blobs.problems.slice(0, 3).join('; ')}`)

        const retried = await cliPush(release)
        const afterRetry = await liveRelease(server, pages)
        if (
          cases.check(
            retried.code === 0 && afterRetry.release === release,
            () =>
              `${where}: the retried push ${retried.code === 0 ? `left the site ${afterRetry.problem ?? `at release ${afterRetry.release}`}` : `failed: ${retried.stderr.trim().split('\n').at(-1)}`}`,
          )
        )
          outcomes.retried++
        live = afterRetry.release ?? live
        say(`crash ${crash + 1}/${counts.crashes}: ${push.reached}, live release ${afterSettling.release}`)
      }

      // Uploads the crashes cut off stay open until the sweep expires them: run it with a clock past the expiry.
      await server.stop()
      const app = await buildApp(defaultConfig({ dataDir: server.dataDir, buildWorkers: 1 }), {
        logger: false,
      })
      try {
        await app.ready()
        const expiry = new UploadExpiry(app.repos, app.blobs, app.config.uploadExpirySeconds * 1000, app.log)
        const swept = await expiry.sweep(Date.now() + app.config.uploadExpirySeconds * 1000 + 60_000)
        outcomes.abandoned = swept.deployments.length
      } finally {
        await app.close()
      }
      for (const row of deployments(server))
        cases.check(
          row.status === 'ready' || (row.status === 'failed' && Boolean(row.error)),
          () => `deployment ${row.id} ended ${row.status}${row.error ? '' : ' without a reason'}`,
        )
      for (const problem of databaseProblems(server)) cases.fail(`at the end: ${problem}`)
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).message}`)
    } finally {
      await server.dispose()
      await rm(siteDir, { recursive: true, force: true })
    }
    return cases.report({
      kills: counts.crashes,
      'kept previous': outcomes.kept,
      'went live': outcomes.advanced,
      'interrupted builds finished/failed': `${outcomes.buildsFinished}/${outcomes.buildsFailed}`,
      'abandoned uploads expired': outcomes.abandoned,
      'retried pushes ok': outcomes.retried,
      'blobs verified': blobsChecked,
      'mean restart': `${(restartMs / Math.max(1, server.starts - 1) / 1000).toFixed(1)} s`,
      'kill points': [...reached].map(([point, count]) => `${point} ×${count}`).join(', '),
    })
  },
}
