/**
 * Publishing a site straight into the blob store and database, so site tests pin routing and headers
 * independently of the compiler's output.
 */
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import type { SiteManifest } from '../../../server/builds/site-manifest.js'
import { storeSiteManifest } from '../../../server/builds/site-manifest-store.js'
import { contentTypeOf } from '../../../serving/content-type.js'

export const page = (title: string) => `<!doctype html><title>${title}</title>${'<p>docs</p>'.repeat(100)}`

/** The theme's hashed stylesheet in these tests: the build marks such files immutable in the manifest. */
export const hashedCss = '_assets/site.0123456789abcdef.css'

/** Store files as a ready deployment of `slug` (precompressed like the build worker does). */
export async function publish(
  app: FastifyInstance,
  slug: string,
  files: Record<string, string>,
  live = true,
  contentSecurityPolicy?: string,
  /** How the manifest is stored: in parts, as builds store it, or whole, as builds before parts did. */
  stored: 'parts' | 'whole' = 'parts',
) {
  const project = await app.repos.projects.findBySlug(slug)
  if (!project) throw new Error('no project')
  const manifest: SiteManifest = {
    version: 1,
    files: {},
    ...(contentSecurityPolicy ? { contentSecurityPolicy } : {}),
  }
  for (const [path, text] of Object.entries(files)) {
    const bytes = Buffer.from(text)
    const brotli = brotliCompressSync(bytes)
    const gzip = gzipSync(bytes)
    manifest.files[path] = {
      sha256: await app.blobs.put(bytes),
      size: bytes.length,
      contentType: contentTypeOf(path),
      br: { sha256: await app.blobs.put(brotli), size: brotli.length },
      gzip: { sha256: await app.blobs.put(gzip), size: gzip.length },
      ...(path === hashedCss ? { immutable: true as const } : {}),
    }
  }
  const { deployment } = await app.repos.deployments.create({
    projectId: project.id,
    branch: 'main',
    commitMessage: null,
    environment: null,
    files: [],
    blobExists: async () => false,
  })
  await app.repos.deployments.finishBuild(deployment.id, {
    status: 'ready',
    diagnostics: [],
    timings: {},
    stats: { pagesRendered: 1, pagesReused: 0 },
    error: null,
    siteManifestSha256:
      stored === 'parts'
        ? await storeSiteManifest(app.blobs, manifest)
        : await app.blobs.put(Buffer.from(JSON.stringify(manifest))),
    buildCacheSha256: null,
  })
  if (live) {
    await app.repos.projects.setLiveDeployment(project.id, deployment.id)
    app.sites.hosts.forgetProject(project.id)
  }
  return { deploymentId: deployment.id, projectId: project.id, previewToken: deployment.preview_token }
}
