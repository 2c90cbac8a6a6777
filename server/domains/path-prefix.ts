/**
 * The path a custom domain mounts a site under: `''` for the whole host, or `/docs`, `/guides/v2`.
 * Segments are plain URL characters, so the prefix compares byte for byte with a decoded request path.
 */

export const maxPathPrefixLength = 200

const segment = /^[A-Za-z0-9._~-]+$/

/** `{pathPrefix}` (`''` for the root), or the problem in words that say what to fix. */
export function normalisePathPrefix(input: string | undefined): { pathPrefix: string } | { problem: string } {
  if (input === undefined || input === '' || input === '/') return { pathPrefix: '' }
  if (input.length > maxPathPrefixLength)
    return { problem: `the prefix has ${input.length} characters; at most ${maxPathPrefixLength}` }
  if (!input.startsWith('/')) return { problem: 'start the prefix with "/", like /docs' }
  if (input.includes('?') || input.includes('#'))
    return { problem: 'a prefix is a path only, without a query (?) or fragment (#)' }
  if (/%(2f|5c)/i.test(input)) return { problem: 'a prefix must not contain an encoded slash (%2F or %5C)' }
  if (input.includes('%')) return { problem: 'write the prefix without percent-encoding' }
  if (input.endsWith('/')) return { problem: `drop the trailing slash: ${input.replace(/\/+$/, '') || '/'}` }
  if (input.includes('//')) return { problem: 'a prefix must not contain an empty segment (//)' }
  const segments = input.slice(1).split('/')
  if (segments.some((part) => part === '..' || part === '.'))
    return { problem: 'a prefix must not contain "." or ".." segments' }
  const bad = segments.find((part) => !segment.test(part))
  if (bad !== undefined)
    return { problem: `"${bad}": a segment has only letters, digits and "-", "_", ".", "~"` }
  return { pathPrefix: input }
}

/** True when `path` (decoded, starting with `/`) lies under `pathPrefix`. */
export const underPrefix = (path: string, pathPrefix: string): boolean =>
  pathPrefix === '' || path === pathPrefix || path.startsWith(`${pathPrefix}/`)
