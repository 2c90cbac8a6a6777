/**
 * What a built page may carry, read with a real HTML parser (hast-util-from-html, parse5 underneath):
 * no `<script>` but the shell's (its one inline colour-mode script, and `src` scripts that are the
 * build's own content-hashed assets), no `on*` event attribute, no `javascript:`/`vbscript:` URL or
 * `data:text/html` document in a URL attribute, no `srcdoc`, no meta refresh to script.
 */
import type { Element, Root } from 'hast'
import { fromHtml } from 'hast-util-from-html'
import { visit } from 'unist-util-visit'

/** Properties (hast names) that hold a URL or a list of them. */
const urlProperties = new Set([
  'href',
  'src',
  'action',
  'formAction',
  'poster',
  'data',
  'cite',
  'background',
  'srcSet',
  'xLinkHref',
  'ping',
  'manifest',
  'codeBase',
  'longDesc',
  'profile',
  'useMap',
])

/** Browsers drop ASCII tab/newline anywhere and leading C0 controls and spaces before the scheme. */
const schemeOf = (value: string): string =>
  value
    .replace(/[\t\n\r]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls a browser skips before a scheme.
    .replace(/^[\u0000-\u0020]+/, '')
    .toLowerCase()

const scriptingUrl = (value: string): boolean => {
  const url = schemeOf(value)
  return (
    url.startsWith('javascript:') ||
    url.startsWith('vbscript:') ||
    url.startsWith('data:text/html') ||
    url.startsWith('data:application/xhtml')
  )
}

const text = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : [String(value)]

const textOf = (element: Element): string =>
  element.children.map((child) => (child.type === 'text' ? child.value : '')).join('')

export interface ShellScripts {
  /** The inline scripts of the shell, as a plain page carries them. */
  inline: ReadonlySet<string>
  /** Site paths of the build's own content-hashed assets. */
  hashedAssets: ReadonlySet<string>
}

/** `../../_assets/site.1234.js` → `_assets/site.1234.js` (page links are relative, see ARCHITECTURE). */
const sitePath = (src: string): string => src.replace(/^(\.\.\/|\.\/)+/, '').replace(/^\//, '')

/** Every way `html` could run script its author's components did not put in the theme. */
export function unsafeMarkup(html: string, shell: ShellScripts): string[] {
  const problems: string[] = []
  const tree: Root = fromHtml(html)
  visit(tree, 'element', (element: Element) => {
    const name = element.tagName.toLowerCase()
    const properties = element.properties
    if (name === 'script') {
      const src = properties.src === undefined ? undefined : String(properties.src)
      if (src === undefined) {
        if (!shell.inline.has(textOf(element)))
          problems.push(`an inline <script> not of the shell: ${textOf(element).slice(0, 80)}`)
      } else if (!shell.hashedAssets.has(sitePath(src)) || !src.endsWith('.js'))
        problems.push(`a <script src="${src.slice(0, 80)}"> that is not the shell's`)
    }
    for (const [property, value] of Object.entries(properties)) {
      if (/^on/i.test(property))
        problems.push(`<${name} ${property}="${text(value).join(' ').slice(0, 60)}">`)
      if (property === 'srcDoc') problems.push(`<${name} srcdoc>`)
      if (urlProperties.has(property) || property.toLowerCase().endsWith('href')) {
        const values = property === 'srcSet' ? text(value).flatMap((item) => item.split(',')) : text(value)
        for (const item of values)
          if (scriptingUrl(item)) problems.push(`<${name} ${property}="${item.slice(0, 60)}">`)
      }
    }
    if (name === 'meta' && /refresh/i.test(text(properties.httpEquiv).join(' '))) {
      const content = text(properties.content).join(' ')
      const target = /url\s*=\s*['"]?(.*)$/i.exec(content)?.[1] ?? ''
      if (scriptingUrl(target)) problems.push(`<meta http-equiv=refresh content="${content.slice(0, 60)}">`)
    }
    if (name === 'base') problems.push(`<base href="${text(properties.href).join('')}">`)
  })
  return problems
}
