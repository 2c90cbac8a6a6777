/**
 * A push through the REST API as `docsctl push` makes it (create with the manifest, upload the files the
 * server lacks in one multipart batch, finalize and wait), for suites that need a site in place.
 */
import { createHash } from 'node:crypto'
import { http } from '../e2e/replicas.js'
import { manifestOf, multipartBody } from '../server/helper.js'
import type { ServerProcess } from './server-process.js'

/** The CLI's chunk size: one request at most 4 MB with its headers. */
const chunkBytes = 4_000_000

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Push `files` to project `slug` and make it live; throws with the answer when a step is refused. */
export async function pushSite(
  server: ServerProcess,
  token: string,
  slug: string,
  files: Map<string, Uint8Array>,
): Promise<string> {
  const created = await server.api('POST', `/projects/slug/${slug}/deployments`, token, {
    branch: 'main',
    commitMessage: 'reliability suite',
    files: manifestOf(files),
  })
  if (created.status !== 201) throw new Error(`create deployment: ${created.status} ${created.text()}`)
  const { deployment, missing } = created.json<{ deployment: { id: string }; missing: string[] }>()
  const wanted = new Set(missing)
  const base = `/projects/slug/${slug}/deployments/${deployment.id}`
  const sent = [...files].filter(([, bytes]) => wanted.has(sha256(bytes)))
  // Files past a batch's 4 MB go in ordered chunks, as the CLI sends them.
  for (const [, bytes] of sent.filter(([, bytes]) => bytes.byteLength > chunkBytes)) {
    const hash = sha256(bytes)
    for (let offset = 0; offset < bytes.byteLength; offset += chunkBytes) {
      const chunk = await http(server.port, 'PUT', `${base}/files/chunks/${hash}?offset=${offset}`, {
        host: server.baseDomain,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: Buffer.from(bytes.subarray(offset, offset + chunkBytes)),
      })
      if (chunk.status !== 200) throw new Error(`upload chunk: ${chunk.status} ${chunk.text()}`)
    }
  }
  const parts = sent
    .filter(([, bytes]) => bytes.byteLength <= chunkBytes)
    .map(([name, bytes]) => ({ name, bytes }))
  if (parts.length) {
    const body = multipartBody(parts)
    const uploaded = await http(server.port, 'POST', `${base}/files/batch`, {
      host: server.baseDomain,
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      body: body.payload,
    })
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text()}`)
  }
  const finalized = await server.api('POST', `${base}/finalize`, token, { promote: true, waitSeconds: 60 })
  if (finalized.status !== 200) throw new Error(`finalize: ${finalized.status} ${finalized.text()}`)
  return deployment.id
}

/** A project of `slug` owned by the token's user; answers its id. */
export async function createProject(server: ServerProcess, token: string, slug: string): Promise<string> {
  const created = await server.api('POST', '/projects/', token, { name: slug, slug })
  if (created.status !== 201) throw new Error(`create project ${slug}: ${created.status} ${created.text()}`)
  return created.json<{ id: string }>().id
}
