/**
 * What may stand in a page's attributes. Browsers strip whitespace and control characters from URLs
 * before reading the scheme (`java&#9;script:` runs), so we compare the same compacted form. Schemes
 * that run code are refused; app deep links (`vscode:`, `cursor:`) and images as `data:` stay.
 */

const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript'])
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif);/i

/** Attributes whose value a browser loads or navigates to (lowercased, hast and HTML spellings). */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'xlinkhref',
  'xlink:href',
  'action',
  'formaction',
  'poster',
  'background',
  'cite',
  'data',
  'ping',
  'manifest',
  'codebase',
  'srcset',
])

/** Attributes that hold a whole document or code, never allowed from a page. */
const FORBIDDEN_ATTRIBUTES = new Set(['srcdoc', 'dangerouslysetinnerhtml'])

/** SVG animation elements can set `href` to a script URL after load; pages never need them. */
export const ANIMATION_ELEMENTS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'discard'])

// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop exactly these before reading a scheme
const compact = (value: string): string => value.replace(/[\u0000-\u0020\u007f]/g, '')

/** True when `value` is a URL a browser could run as script, or a `data:` URL other than an image. */
export function isUnsafeUrl(value: string): boolean {
  const url = compact(value)
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase()
  if (!scheme) return false
  if (scheme === 'data') return !SAFE_DATA_IMAGE.test(url)
  return SCRIPT_SCHEMES.has(scheme)
}

/**
 * Why attribute `name` with `value` must be left out of a page, or `undefined` when it may stay:
 * event handlers, document-holding attributes, unsafe URLs, and script URLs in any attribute.
 */
export function unsafeAttribute(name: string, value: unknown): string | undefined {
  const key = name.toLowerCase()
  if (key.startsWith('on')) return 'an event handler'
  if (FORBIDDEN_ATTRIBUTES.has(key)) return 'markup that would run as a document'
  if (typeof value !== 'string') return undefined
  if (URL_ATTRIBUTES.has(key) && isUnsafeUrl(value)) return 'a URL that can run code'
  if (/^(javascript|vbscript|data:text\/html)/i.test(compact(value))) return 'a script URL'
  return undefined
}
