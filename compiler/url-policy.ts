/**
 * The one URL policy of the compiler: every URL a page, a component, front matter or docs.json puts
 * into the site passes `urlProblem` first. Browsers strip whitespace and control characters before
 * reading a scheme (`java&#9;script:` runs), so the scheme is read from the same compacted form.
 * Script schemes are refused everywhere; `data:` only as an image; frames only load http(s) pages;
 * links may still open apps (`vscode:`, `mailto:`).
 */

/** What the browser does with a URL: follows it, shows it as an image or media, or loads it in a frame. */
export type UrlUse = 'link' | 'image' | 'media' | 'frame'

const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript'])
const IMAGE_DATA = /^data:image\/(png|jpe?g|gif|webp|avif)[;,]/i

// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop exactly these before reading a scheme
const compact = (value: string): string => value.replace(/[\u0000-\u0020\u007f]/g, '')

/** The URL's scheme, lowercased (`javascript`), or `undefined` for a relative URL. */
export function urlScheme(value: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(compact(value))?.[1]?.toLowerCase()
}

/** Why `value` may not be used as a URL for `use`, or `undefined` when it may. */
export function urlProblem(value: string, use: UrlUse): string | undefined {
  const scheme = urlScheme(value)
  if (scheme === undefined) return undefined
  if (SCRIPT_SCHEMES.has(scheme)) return 'script URL'
  if (scheme === 'data')
    return use === 'image' && IMAGE_DATA.test(compact(value)) ? undefined : 'data: URL that is not an image'
  if (use === 'frame' && scheme !== 'https' && scheme !== 'http') return `${scheme}: URL in a frame`
  return undefined
}

/**
 * `srcset` is a list of `url descriptor` candidates separated by commas. Compacted first (as a browser
 * reads each URL), every comma-separated part must pass: a descriptor or a data URL's payload has no
 * scheme, so only the URLs themselves are judged.
 */
export function srcsetProblem(value: string, use: UrlUse): string | undefined {
  for (const part of compact(value).split(',')) {
    const problem = urlProblem(part, use)
    if (problem) return problem
  }
  return undefined
}

/**
 * hast properties that hold a URL, with what the browser does with it; `src` depends on the element.
 * Keys are hast property names (property-information), which is what the sanitiser sees.
 */
const URL_PROPERTIES: Record<string, UrlUse> = {
  href: 'link',
  xLinkHref: 'link',
  action: 'link',
  formAction: 'link',
  cite: 'link',
  longDesc: 'link',
  ping: 'link',
  manifest: 'link',
  codeBase: 'link',
  background: 'image',
  poster: 'image',
  src: 'media',
  srcSet: 'image',
  data: 'frame',
}

const SRC_USE: Record<string, UrlUse> = { img: 'image', image: 'image', iframe: 'frame', frame: 'frame' }

/** How `property` of `<tagName>` is used as a URL, or `undefined` when it holds no URL. */
export function urlUseOf(tagName: string, property: string): UrlUse | undefined {
  // Own keys only: element and attribute names are the author's, and may be `constructor`.
  if (property === 'src') return Object.hasOwn(SRC_USE, tagName) ? SRC_USE[tagName] : 'media'
  if (property === 'href' && tagName === 'image') return 'image'
  if (property === 'srcSet') return 'image'
  return Object.hasOwn(URL_PROPERTIES, property) ? URL_PROPERTIES[property] : undefined
}

/** Why property `property` of `<tagName>` with `value` must be left out, or `undefined` when it may stay. */
export function urlPropertyProblem(tagName: string, property: string, value: unknown): string | undefined {
  const use = urlUseOf(tagName, property)
  if (!use) return undefined
  const text = Array.isArray(value) ? value.join(property === 'srcSet' ? ', ' : ' ') : String(value)
  return property === 'srcSet' ? srcsetProblem(text, use) : urlProblem(text, use)
}
