/**
 * A full disk, for real: a `docs-server` on SQLite whose data folder is a small tmpfs the suite mounts
 * (root is needed; where mounting is refused the suite says so, and test/server/builds/out-of-space.test.ts
 * covers the answer with an injected ENOSPC). The disk is filled to a few hundred KB:
 * - while uploading: the batch answers 507 with `{error}`, the blob store keeps no part of it (its
 *   temporary folder is empty, the file is still missing) and the live site keeps serving;
 * - while building: the build fails with a reason (or finalize answers 507), the previous deployment stays
 *   live and keeps serving;
 * then the space is freed and the same push succeeds and goes live.
 */
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, open, readdir, rm, stat, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { http } from '../e2e/replicas.js'
import { manifestOf, multipartBody } from '../server/helper.js'
import { manyFileSite, versionSite } from './load.js'
import { createProject, pushSite } from './push.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite } from './suite.js'

const run = promisify(execFile)
const MB = 1024 * 1024
const diskBytes = 96 * MB

/** Fills the disk of `folder` until `leaveBytes` are free; answers the filler's path. */
async function fill(folder: string, leaveBytes: number): Promise<string> {
  const path = join(folder, `filler-${randomBytes(4).toString('hex')}`)
  const handle = await open(path, 'w')
  try {
    const chunk = Buffer.alloc(MB)
    for (;;) {
      const disk = await statfs(folder)
      const free = disk.bavail * disk.bsize
      if (free <= leaveBytes) break
      await handle.write(chunk, 0, Math.min(chunk.length, free - leaveBytes))
    }
  } finally {
    await handle.close()
  }
  return path
}

const freeBytes = async (folder: string) => {
  const disk = await statfs(folder)
  return disk.bavail * disk.bsize
}

/** Names in the blob store's temporary folder: a write cut short must leave none. */
const tempFiles = async (dataDir: string) =>
  readdir(join(dataDir, 'blobs', 'tmp')).catch(() => [] as string[])

export const diskFull: Suite = {
  name: 'disk full (tmpfs)',
  async run({ say }) {
    const cases = new Cases()
    const figures: Record<string, string | number> = {}
    const mountPoint = await mkdtemp(join(tmpdir(), 'docs-reliability-tmpfs-'))
    const mounted = await run('mount', ['-t', 'tmpfs', '-o', `size=${diskBytes}`, 'tmpfs', mountPoint]).then(
      () => true,
      (error: Error) => {
        say(`disk full: mounting a tmpfs was refused (${error.message.split('\n')[0]}): skipped`)
        return false
      },
    )
    if (!mounted) {
      await rm(mountPoint, { recursive: true, force: true })
      return cases.report({ tmpfs: 'mount refused, skipped (ENOSPC injected in test/server/builds)' })
    }
    const dataDir = join(mountPoint, 'data')
    const server = await ServerProcess.create('disk-full', ['--min-free-disk', '1'], dataDir)
    const fillers: string[] = []
    try {
      await server.start()
      const token = await server.token('disk-full@example.com')
      await createProject(server, token, 'steady')
      await pushSite(server, token, 'steady', versionSite(1, 3))
      await createProject(server, token, 'full')
      await pushSite(server, token, 'full', versionSite(1, 3))
      const serves = async (slug: string, version: number) => {
        const answer = await server.site(slug, '/page-1/').catch(() => undefined)
        return answer?.status === 200 && answer.text().includes(`version-${version}`)
      }

      // 1. Full while uploading: a 3 MB file onto a disk with 512 KB free.
      fillers.push(await fill(mountPoint, 512 * 1024))
      figures['free while uploading'] = `${((await freeBytes(mountPoint)) / 1024).toFixed(0)} KB`
      const big = new Uint8Array(randomBytes(3 * MB))
      const files = new Map([...versionSite(2, 3), ['public/download.bin', big] as const])
      const created = await server.api('POST', '/projects/slug/full/deployments', token, {
        branch: 'main',
        files: manifestOf(files),
      })
      if (created.status !== 201) throw new Error(`create deployment: ${created.status} ${created.text()}`)
      const { deployment, missing } = created.json<{ deployment: { id: string }; missing: string[] }>()
      const bigHash = createHash('sha256').update(big).digest('hex')
      const wanted = new Set(missing)
      const body = multipartBody(
        [...files]
          .filter(([, bytes]) => wanted.has(createHash('sha256').update(bytes).digest('hex')))
          .map(([name, bytes]) => ({ name, bytes })),
      )
      const base = `/projects/slug/full/deployments/${deployment.id}`
      const uploaded = await http(server.port, 'POST', `${base}/files/batch`, {
        host: server.baseDomain,
        headers: { authorization: `Bearer ${token}`, ...body.headers },
        body: body.payload,
      }).catch((error: Error) => error)
      const uploadStatus = uploaded instanceof Error ? uploaded.message : uploaded.status
      cases.check(
        !(uploaded instanceof Error) &&
          uploaded.status === 507 &&
          typeof uploaded.json<{ error?: unknown }>().error === 'string',
        () =>
          `upload onto a full disk answered ${uploadStatus}${uploaded instanceof Error ? '' : ` ${uploaded.text().slice(0, 200)}`}, not 507 {error}`,
      )
      figures['upload on a full disk'] = uploadStatus
      const leftovers = await tempFiles(dataDir)
      cases.check(leftovers.length === 0, () => `the blob store kept ${leftovers.length} half-written files`)
      const objectPath = join(dataDir, 'blobs', 'objects', bigHash.slice(0, 2), bigHash.slice(2))
      cases.check(
        (await stat(objectPath).catch(() => undefined)) === undefined,
        () => 'the file cut short by the full disk was stored',
      )
      const state = await server.api('GET', base, token)
      cases.check(state.status === 200, () => `reading the deployment on a full disk: ${state.status}`)
      cases.check(
        await serves('steady', 1),
        () => 'the live site stopped serving while uploading on a full disk',
      )
      cases.check(
        await serves('full', 1),
        () => 'the project being pushed stopped serving its live deployment',
      )

      // 2. Full while building: the upload fits, then the disk fills before the build writes its pages.
      await rm(fillers.pop()!)
      const site = manyFileSite('built', 300, false)
      const buildCreated = await server.api('POST', '/projects/slug/full/deployments', token, {
        branch: 'main',
        files: manifestOf(site),
      })
      if (buildCreated.status !== 201)
        throw new Error(`create deployment: ${buildCreated.status} ${buildCreated.text()}`)
      const toBuild = buildCreated.json<{ deployment: { id: string } }>().deployment.id
      const siteBody = multipartBody([...site].map(([name, bytes]) => ({ name, bytes })))
      const buildBase = `/projects/slug/full/deployments/${toBuild}`
      const sent = await http(server.port, 'POST', `${buildBase}/files/batch`, {
        host: server.baseDomain,
        headers: { authorization: `Bearer ${token}`, ...siteBody.headers },
        body: siteBody.payload,
      })
      if (sent.status !== 200) throw new Error(`upload before the build: ${sent.status} ${sent.text()}`)
      fillers.push(await fill(mountPoint, 256 * 1024))
      figures['free while building'] = `${((await freeBytes(mountPoint)) / 1024).toFixed(0)} KB`
      const finalized = await server.api('POST', `${buildBase}/finalize`, token, {
        promote: true,
        waitSeconds: 3,
      })
      const outcome = finalized.json<{ error?: string; status?: string }>()
      // Refused (507), failed with a reason (422), or queued: on a full disk SQLite cannot even lease the
      // job, which then waits in the queue and must build once space is freed (checked below).
      const queued = finalized.status === 202
      cases.check(
        queued || finalized.status === 507 || (finalized.status === 422 && typeof outcome.error === 'string'),
        () =>
          `a build on a full disk answered ${finalized.status} ${finalized.text().slice(0, 200)}; the server said: ${server.log
            .split('\n')
            .filter((line) => /"level":(40|50)/.test(line))
            .slice(-3)
            .join(' | ')
            .slice(0, 1500)}`,
      )
      figures['build on a full disk'] = queued
        ? 'queued until space is freed'
        : `${finalized.status}${outcome.error ? ` "${outcome.error.slice(0, 80)}"` : ''}`
      cases.check(
        await serves('full', 1),
        () => 'the previous deployment stopped serving after a build hit a full disk',
      )
      cases.check(
        await serves('steady', 1),
        () => 'another site stopped serving after a build hit a full disk',
      )
      cases.check(server.running && server.starts === 1, () => 'the server exited on a full disk')

      // 3. Space freed: a queued build finishes, and the next push succeeds and goes live.
      await rm(fillers.pop()!)
      if (queued) {
        const started = performance.now()
        let status = 'building'
        while (status === 'building' && performance.now() - started < 120_000) {
          await new Promise((resolve) => setTimeout(resolve, 500))
          const read = await server.api('GET', buildBase, token)
          status = read.json<{ status?: string }>().status ?? 'unknown'
        }
        cases.check(
          status === 'ready',
          () => `the build queued on a full disk ended ${status} once space was freed`,
        )
        figures['queued build once freed'] =
          `${status} in ${((performance.now() - started) / 1000).toFixed(1)} s`
      }
      await pushSite(server, token, 'full', files).then(
        () => cases.check(true, () => ''),
        (error: Error) =>
          cases.check(false, () => `the push after space was freed: ${error.message.slice(0, 300)}`),
      )
      cases.check(await serves('full', 2), () => 'the push after space was freed is not what the site serves')
      const download = await server.site('full', '/public/download.bin')
      cases.check(
        download.status === 200 && Buffer.compare(download.body, Buffer.from(big)) === 0,
        () => `the file refused on the full disk, pushed again, answers ${download.status} with other bytes`,
      )
      figures.tmpfs = `${diskBytes / MB} MB`
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).stack ?? String(error)}`)
    } finally {
      for (const filler of fillers) await rm(filler, { force: true })
      await server.dispose()
      await run('umount', [mountPoint]).catch((error: Error) => cases.fail(`umount: ${error.message}`))
      await rm(mountPoint, { recursive: true, force: true })
    }
    return cases.report(figures)
  },
}
