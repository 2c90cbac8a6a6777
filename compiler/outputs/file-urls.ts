/**
 * A build opened from `file://` (`docsctl build --file-urls`): a browser shows a folder listing for
 * `guide/setup/`, where a web server answers with `guide/setup/index.html`. So every relative link
 * to a folder in a built HTML file (`href` and a redirect page's `url=`) is made to name its
 * `index.html`; links to files, anchors and other sites are left as they are.
 */
import { isExternal } from '../theme/urls.js'

/** `guide/setup/#step` → `guide/setup/index.html#step`; `./`, `..` and `../` likewise. */
export function fileUrl(href: string): string {
  if (href === '' || href.startsWith('#') || href.startsWith('?') || href.startsWith('/') || isExternal(href))
    return href
  const split = href.search(/[?#]/)
  const path = split === -1 ? href : href.slice(0, split)
  const rest = split === -1 ? '' : href.slice(split)
  if (path.endsWith('/')) return `${path}index.html${rest}`
  if (path === '.' || path === '..' || path.endsWith('/.') || path.endsWith('/..'))
    return `${path}/index.html${rest}`
  return href
}

/** The HTML with its relative folder links naming `index.html`. */
export function withFileUrls(html: string): string {
  return html
    .replace(
      /(\shref=")([^"]*)"/g,
      (_match, attribute: string, href: string) => `${attribute}${fileUrl(href)}"`,
    )
    .replace(
      /(<meta http-equiv="refresh" content="\d+; url=)([^"]*)"/g,
      (_match, start: string, href: string) => `${start}${fileUrl(href)}"`,
    )
}
