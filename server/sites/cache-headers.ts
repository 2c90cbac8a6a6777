/**
 * How long a site answer may be kept, and by whom. Browsers always ask again (cheap: an ETag and a
 * 304); a shared cache (a CDN, deploy/varnish.vcl) keeps a page for `s-maxage`, may serve it stale
 * for `stale-while-revalidate` while it fetches it again and for `stale-if-error` while the server
 * fails, and is purged by the `project-<id>`/`deployment-<id>` tags when a deployment goes live. Only
 * the build's hashed assets are `immutable`. A preview is never stored by a shared cache: `private`.
 */
import type { ServerConfig } from '../config.js'
import type { SiteTarget } from './resolve-host.js'

export type SharedCacheSettings = Pick<
  ServerConfig,
  'cdnMaxAgeSeconds' | 'cdnStaleWhileRevalidateSeconds' | 'cdnStaleIfErrorSeconds'
>

const year = 31_536_000

/** `Cache-Control` of a site answer: a hashed asset (`immutable`) or anything else (revalidated). */
export function siteCacheControl(
  config: SharedCacheSettings,
  site: Pick<SiteTarget, 'preview'>,
  lifetime: 'immutable' | 'revalidate',
): string {
  if (lifetime === 'immutable') return `${site.preview ? 'private' : 'public'}, max-age=${year}, immutable`
  if (site.preview) return 'private, no-cache'
  return [
    'public',
    'max-age=0',
    `s-maxage=${config.cdnMaxAgeSeconds}`,
    `stale-while-revalidate=${config.cdnStaleWhileRevalidateSeconds}`,
    `stale-if-error=${config.cdnStaleIfErrorSeconds}`,
  ].join(', ')
}

/** The tags a shared cache purges by: Cloudflare reads `Cache-Tag`, Fastly and Varnish `Surrogate-Key`. */
export function cacheTags(site: Pick<SiteTarget, 'projectId' | 'deploymentId'>): Record<string, string> {
  return {
    'cache-tag': `project-${site.projectId},deployment-${site.deploymentId}`,
    'surrogate-key': `project-${site.projectId} deployment-${site.deploymentId}`,
  }
}

/**
 * Whether `If-None-Match` names `etag`: `*`, or a list of entity tags compared weakly (RFC 9110
 * 13.1.2), so a cache that weakened the tag (`W/"…"`) still gets its 304.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch === etag) return true
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === opaque
  })
}
