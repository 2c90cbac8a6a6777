/**
 * What `docsctl rename` changes when a page moves from one slug to another: the navigation entries
 * and redirects of docs.json (as text edits that keep the author's formatting) and the links to the
 * page in every page, relative (`../setup.mdx#install`) and absolute (`/guide/setup#install`), with
 * their anchors and queries. Links in fenced code blocks are examples, not links, and stay.
 */
import { posix } from 'node:path'
import { applyEdits, type Edit, findNodeAtLocation, modify, type Node, parse, parseTree } from 'jsonc-parser'

/** `guide/setup.mdx` → `guide/setup`. */
export const slugOf = (path: string): string => path.replace(/\.mdx?$/i, '')

/** The site paths a link may use for a page: `/guide/index` is also `/guide`, the home page `/`. */
function urlsOf(slug: string): string[] {
  const urls = [`/${slug}`]
  if (slug === 'index') urls.push('/')
  else if (slug.endsWith('/index')) urls.push(`/${slug.slice(0, -'/index'.length)}`)
  return urls
}

/** Indentation as the file writes it, for the edits jsonc-parser makes. */
function formatOf(text: string) {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return {
    formattingOptions: {
      insertSpaces: !indent.startsWith('\t'),
      tabSize: indent.startsWith('\t') ? 1 : indent.length,
    },
  }
}

/**
 * docs.json with the page's navigation entries (strings in `pages` lists and `root`s under
 * `navigation`) renamed, redirects that led to the old page sent to the new one, and a redirect from
 * the old path to the new one added.
 */
export function renameInConfig(text: string, from: string, to: string): string {
  const tree = parseTree(text)
  const edits: Edit[] = []
  const fromUrls = urlsOf(from)
  const renamed = (value: string): string | undefined => {
    const leadingSlash = value.startsWith('/')
    const path = `/${value.replace(/^\/+/, '').replace(/\/+$/, '')}`
    if (!fromUrls.includes(path)) return undefined
    return leadingSlash ? `/${to}` : to
  }
  const visit = (node: Node, inNavigation: boolean, key?: string) => {
    if (node.type === 'string' && inNavigation && (key === undefined || key === 'root')) {
      const next = renamed(String(node.value))
      if (next !== undefined)
        edits.push({ offset: node.offset, length: node.length, content: JSON.stringify(next) })
      return
    }
    for (const child of node.children ?? []) {
      if (node.type === 'property') continue
      if (child.type === 'property') {
        const [name, value] = child.children ?? []
        if (!name || !value) continue
        const keyName = String(name.value)
        visit(value, inNavigation || keyName === 'navigation', keyName)
      } else visit(child, inNavigation, undefined)
    }
  }
  if (tree) visit(tree, false)
  let result = applyEdits(text, edits)

  // A file on one line stays on one line: no formatting of the inserted redirect.
  const format = result.trim().includes('\n') ? formatOf(result) : {}
  // A redirect away from the new path would hide the page there (and loop once pointed at it): it goes.
  const toUrls = urlsOf(to)
  const sourceOf = (entry: unknown) => (entry as { source?: unknown } | null)?.source
  const listed = (parse(result) as { redirects?: unknown })?.redirects
  if (Array.isArray(listed)) {
    for (let index = listed.length - 1; index >= 0; index--) {
      const source = sourceOf(listed[index])
      if (typeof source === 'string' && toUrls.includes(`/${source.replace(/^\/+/, '').replace(/\/+$/, '')}`))
        result = applyEdits(result, removeElementEdits(result, ['redirects'], index))
    }
  }
  const config = parse(result) as { redirects?: unknown }
  const redirects = Array.isArray(config?.redirects) ? (config.redirects as unknown[]) : undefined
  const redirectEdits: Edit[] = []
  const redirectsNode = parseTree(result)
  redirects?.forEach((entry, index) => {
    const destination = (entry as { destination?: unknown } | null)?.destination
    if (typeof destination !== 'string' || !destination.startsWith('/')) return
    const { path, suffix } = splitTarget(destination)
    if (!fromUrls.includes(`/${path.replace(/^\/+/, '').replace(/\/+$/, '')}`)) return
    const node = redirectsNode && findNodeAtLocation(redirectsNode, ['redirects', index, 'destination'])
    if (node)
      redirectEdits.push({
        offset: node.offset,
        length: node.length,
        content: JSON.stringify(`/${to}${suffix}`),
      })
  })
  result = applyEdits(result, redirectEdits)
  const redirect = { source: `/${from}`, destination: `/${to}` }
  const list = redirects && parseTree(result)
  const last = list ? findNodeAtLocation(list, ['redirects', redirects.length - 1]) : undefined
  if (last && !result.slice(last.offset, last.offset + last.length).includes('\n')) {
    // Entries written one a line: the new one too, in the same form.
    const lineStart = result.lastIndexOf('\n', last.offset) + 1
    const indent = /^[ \t]*/.exec(result.slice(lineStart))?.[0] ?? ''
    const compact = `{ "source": ${JSON.stringify(redirect.source)}, "destination": ${JSON.stringify(redirect.destination)} }`
    const end = last.offset + last.length
    return `${result.slice(0, end)},\n${indent}${compact}${result.slice(end)}`
  }
  result = applyEdits(
    result,
    redirects
      ? modify(result, ['redirects', redirects.length], redirect, { ...format, isArrayInsertion: true })
      : modify(result, ['redirects'], [redirect], format),
  )
  return result
}

/**
 * Removes element `index` of the array at `path` with the comma before it (or after it, for the first),
 * leaving the line breaks and indentation around the others as written.
 */
function removeElementEdits(text: string, path: (string | number)[], index: number): Edit[] {
  const tree = parseTree(text)
  const list = tree && findNodeAtLocation(tree, path)
  const elements = list?.children ?? []
  const element = elements[index]
  if (!element) return []
  const previous = elements[index - 1]
  const next = elements[index + 1]
  const [start, end] = previous
    ? [previous.offset + previous.length, element.offset + element.length]
    : next
      ? [element.offset, next.offset]
      : [element.offset, element.offset + element.length]
  return [{ offset: start, length: end - start, content: '' }]
}

/** A link's target split into the path and what follows it (`#anchor`, `?query`). */
const splitTarget = (target: string) => {
  const at = target.search(/[#?]/)
  return at === -1 ? { path: target, suffix: '' } : { path: target.slice(0, at), suffix: target.slice(at) }
}

/** Whether a link target is a site link docsctl may rewrite (not `https:`, `mailto:`, `#top`). */
const isSiteLink = (target: string) =>
  target !== '' && !target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//')

/**
 * Rewrites every link target in a page's text (`](target)`, `href="target"`, `href={'target'}`) with
 * `rewrite`, outside fenced code blocks. `rewrite` returns the new target, or undefined to keep it.
 */
function rewriteLinks(text: string, rewrite: (target: string) => string | undefined): string {
  let fence: string | undefined
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
      if (marker) {
        if (fence === undefined) fence = marker
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
        return line
      }
      if (fence !== undefined) return line
      return line
        .replace(/(\]\(\s*<?)([^)\s>]+)/g, (whole, head: string, target: string) => {
          const next = rewrite(target)
          return next === undefined ? whole : head + next
        })
        .replace(
          /(\bhref=\{?\s*(["'`]))([^"'`]+)(?=\2)/g,
          (whole, head: string, _quote: string, target: string) => {
            const next = rewrite(target)
            return next === undefined ? whole : head + next
          },
        )
    })
    .join('\n')
}

/** A link from a page in `dir` to site path `path`, as relative as `original` was written. */
function relativeLink(dir: string, path: string, original: string): string {
  let link = posix.relative(dir, path) || posix.basename(path)
  if (original.startsWith('./') && !link.startsWith('.')) link = `./${link}`
  return link
}

/**
 * The text of a page at `page` (site path, with extension) with its links to the renamed page
 * updated. When `page` is the renamed page itself, `movedFrom` is its old path: its relative links
 * then resolve from the old folder and are written from the new one.
 */
export function renameInPage(
  text: string,
  page: string,
  from: string,
  to: string,
  movedFrom?: string,
): string {
  const fromUrls = urlsOf(from)
  const oldDir = posix.dirname(movedFrom ?? page)
  const newDir = posix.dirname(page)
  return rewriteLinks(text, (target) => {
    if (!isSiteLink(target)) return undefined
    const { path, suffix } = splitTarget(target)
    if (path === '') return undefined
    const extension = /\.mdx?$/i.exec(path)?.[0] ?? ''
    const absolute = path.startsWith('/')
    const resolved = absolute ? path : `/${posix.join(oldDir, path)}`
    const normalised = `/${slugOf(resolved).replace(/^\/+/, '').replace(/\/+$/, '')}`
    if (fromUrls.includes(normalised)) {
      if (absolute) return `/${to}${extension}${suffix}`
      return `${relativeLink(newDir, `${to}${extension}`, path)}${suffix}`
    }
    // The moved page's own relative links to other pages and files, written from its new folder.
    if (!absolute && oldDir !== newDir) {
      const target = posix.join(oldDir, path)
      if (target.startsWith('../')) return undefined
      return `${relativeLink(newDir, target, path)}${path.endsWith('/') && !target.endsWith('/') ? '/' : ''}${suffix}`
    }
    return undefined
  })
}
