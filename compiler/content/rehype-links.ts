/**
 * rehype plugin: check and relativise every site-internal URL in the page (links, images, media).
 * A link to a page that does not exist is a problem at its place (an error in strict mode); a missing
 * image or file is a warning. Assets found are listed in `page.assets` for the build to copy, and
 * referenced with their content's version (`?v=…`, compiler/asset-version.ts) so a reader never mixes
 * this deployment's page with the next one's file.
 */
import type { Element, Root } from 'hast'
import type { VFile } from 'vfile'
import { siteRedirects } from '../config/index.js'
import { urlPropertyProblem } from '../url-policy.js'
import { versionedUrl } from './asset-version.js'
import { type PageContext, placeOf, report } from './context.js'
import { isExternal, pageSlugFor, relativeAssetUrl, relativePageUrl, siteTarget } from './links.js'
import { walkElements } from './walk-elements.js'

/** Attributes that hold a URL, per element. `href` on `<a>` may name a page; the rest are files. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  img: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src'],
  track: ['src'],
  iframe: ['src'],
}

/** Where a docs.json redirect sends a link to a site path: a page of this site or an external URL. */
function movedTo(page: PageContext, path: string, suffix: string): string | undefined {
  const moved = siteRedirects(page.files).match(`/${path.replace(/\/+$/, '')}`)
  if (!moved) return undefined
  if (isExternal(moved.location)) return moved.location
  const target = siteTarget(moved.location, page.file)
  const slug = target && pageSlugFor(target.path, page.pageSlugs)
  return slug === undefined ? undefined : relativePageUrl(page.slug, slug) + (target?.suffix || suffix)
}

/**
 * An `img` or `source` srcset with each candidate that names a file of the site versioned (and listed
 * in `page.assets`, so the file is published); other candidates, and the descriptors, stay as written.
 */
function versionSrcset(node: Element, page: PageContext): void {
  const value = node.properties.srcSet
  const candidates = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(',')
      : []
  // A data URL's payload holds commas: such a srcset is not split, and names no file of the site anyway.
  if (candidates.length === 0 || candidates.some((candidate) => /^\s*data:/i.test(candidate))) return
  if (urlPropertyProblem(node.tagName, 'srcSet', candidates.join(', '))) return
  let versioned = false
  const rewritten = candidates.map((candidate) => {
    const [url = '', ...descriptor] = candidate.trim().split(/\s+/)
    const target = siteTarget(url, page.file)
    const bytes = target && page.files.get(target.path)
    if (!target || !bytes) return candidate.trim()
    page.assets.add(target.path)
    versioned = true
    const path = url.slice(0, url.length - target.suffix.length)
    return [versionedUrl(path, target.suffix, bytes), ...descriptor].join(' ')
  })
  if (versioned) node.properties.srcSet = rewritten.join(', ')
}

export default function rehypeLinks() {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    walkElements(tree, (node: Element) => {
      if (node.tagName === 'img' || node.tagName === 'source') versionSrcset(node, page)
      // Own keys only: an author's `<constructor>` must not find Object.prototype's members.
      const attributes = Object.hasOwn(URL_ATTRIBUTES, node.tagName) ? URL_ATTRIBUTES[node.tagName]! : []
      for (const attribute of attributes) {
        const value = node.properties[attribute]
        if (typeof value !== 'string') continue
        // A URL the policy refuses is no link to check: the sanitiser reports it and leaves it out.
        if (urlPropertyProblem(node.tagName, attribute, value)) continue
        const target = siteTarget(value.trim(), page.file)
        if (!target) continue
        const place = placeOf(node)
        if (node.tagName === 'a' || node.tagName === 'iframe') {
          const slug = pageSlugFor(target.path, page.pageSlugs)
          if (slug !== undefined) {
            node.properties[attribute] = relativePageUrl(page.slug, slug) + target.suffix
            continue
          }
          if (page.files.has(target.path)) {
            page.assets.add(target.path)
            node.properties[attribute] = versionedUrl(
              relativeAssetUrl(page.slug, target.path),
              target.suffix,
              page.files.get(target.path),
            )
            continue
          }
          const looksLikeFile = /\.[a-z0-9]+$/i.test(target.path) && !/\.mdx?$/.test(target.path)
          if (looksLikeFile) {
            report(
              page,
              'warning',
              'missing-asset',
              `Unexpected link to missing file "${value}", expected a file at ${target.path}`,
              place,
            )
            node.properties[attribute] = relativeAssetUrl(page.slug, target.path) + target.suffix
          } else if (movedTo(page, target.path, target.suffix) !== undefined) {
            // A link covered by a docs.json redirect goes straight to where the page moved.
            node.properties[attribute] = movedTo(page, target.path, target.suffix)!
          } else {
            report(
              page,
              'problem',
              'broken-link',
              `Unexpected link to "${value}", expected a page of this site (no page ${target.path.replace(/\/+$/, '') || 'index'})`,
              place,
            )
            node.properties[attribute] =
              relativePageUrl(page.slug, target.path.replace(/\/+$/, '').replace(/\.mdx?$/, '')) +
              target.suffix
          }
          continue
        }
        if (!page.files.has(target.path)) {
          report(
            page,
            'warning',
            'missing-asset',
            `Unexpected ${node.tagName} "${value}", expected a file at ${target.path}`,
            place,
          )
        } else page.assets.add(target.path)
        node.properties[attribute] = versionedUrl(
          relativeAssetUrl(page.slug, target.path),
          target.suffix,
          page.files.get(target.path),
        )
      }
    })
  }
}
