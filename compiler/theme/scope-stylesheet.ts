/**
 * Scopes a stylesheet the author put at the site's root (`style.css`, …) to the page's content (`.d-prose`,
 * what the author wrote), so it cannot restyle the shell (navigation, sidebar, header, the page title,
 * pagination, search).
 *
 * Every style rule's selectors are rewritten to start inside `:where(.d-prose)` (no added
 * specificity): `.hero h1` becomes `:where(.d-prose) .hero h1`. Leading compounds that name the
 * document or the colour mode (`html`, `:root`, `body`, `[data-theme…]`, `.dark`) stay ancestors:
 * `html[data-theme="dark"] .hero` becomes `html[data-theme="dark"] :where(.d-prose) .hero`, and a
 * selector that is only such a compound (`body`, `:root`) becomes the content itself, keeping only the
 * inherited and custom properties of its rule (see INHERITED). Rules inside `@media`, `@supports`,
 * `@container` and `@layer` blocks are scoped the same way; `@font-face`, `@keyframes`, `@property`,
 * `@layer` statements and the like are kept as written (they style nothing by themselves). An `@import`
 * of anything but another root stylesheet (itself scoped) is dropped, since it would arrive unscoped.
 *
 * A small splitter aware of braces, strings, comments and brackets: no CSS parser is a dependency.
 */

export const CONTENT_SCOPE = ':where(.d-prose)'

/** At-rules whose block holds style rules, scoped like the top level. */
const GROUPING = new Set(['media', 'supports', 'container', 'layer', 'document', '-moz-document'])

/** `rootNames`: the site's root stylesheets, which an `@import` may keep pointing at. */
export function scopeRootStylesheet(css: string, rootNames: readonly string[] = []): string {
  return scopeBlock(css.replace(/^\uFEFF/, ''), new Set(rootNames.map((name) => name.toLowerCase())))
}

function scopeBlock(css: string, rootNames: ReadonlySet<string>): string {
  const out: string[] = []
  let at = 0
  while (at < css.length) {
    at = skipSpaceAndComments(css, at)
    if (at >= css.length) break
    const end = scanPrelude(css, at)
    const prelude = css.slice(at, end).trim()
    if (end >= css.length) {
      // A trailing prelude with neither `;` nor `{` is invalid CSS: dropped, like a browser would.
      break
    }
    if (css[end] === ';' || css[end] === '}') {
      if (prelude.startsWith('@') && keepStatement(prelude, rootNames)) out.push(`${prelude};`)
      at = end + 1
      continue
    }
    const close = matchingBrace(css, end)
    const body = css.slice(end + 1, close)
    at = close + 1
    if (prelude.startsWith('@')) {
      const name = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase() ?? ''
      out.push(GROUPING.has(name) ? `${prelude} {\n${scopeBlock(body, rootNames)}}` : `${prelude} {${body}}`)
      continue
    }
    if (prelude === '') continue
    const { content, document } = scopeSelectors(prelude)
    if (content.length > 0) out.push(`${content.join(', ')} {${body}}`)
    const passed = document.length > 0 ? inheritedDeclarations(body) : ''
    if (passed !== '') out.push(`${document.join(', ')} { ${passed} }`)
  }
  return out.map((part) => `${part}\n`).join('')
}

/** `@import` only of another root stylesheet; every other statement at-rule as written. */
function keepStatement(prelude: string, rootNames: ReadonlySet<string>): boolean {
  if (!/^@import\b/i.test(prelude)) return true
  const target = /^@import\s+(?:url\(\s*)?(["']?)([^"')\s]+)\1/i.exec(prelude)?.[2] ?? ''
  return rootNames.has(target.replace(/^(?:\.\/|\/)/, '').toLowerCase())
}

/** Rewrites each selector of a comma-separated list to start inside the article. */
export function scopeSelectorList(selectors: string): string {
  const { content, document } = scopeSelectors(selectors)
  return [...new Set([...content, ...document])].join(', ')
}

/**
 * The scoped selectors of a list, apart: `content` for those inside the article, `document` for those
 * that named only the document (`body`, `html.dark`), which now name the article itself.
 */
function scopeSelectors(selectors: string): { content: string[]; document: string[] } {
  const content = new Set<string>()
  const document = new Set<string>()
  for (const selector of splitTopLevel(selectors, ',')) {
    const scoped = scopeSelector(selector.trim())
    if (scoped) (scoped.document ? document : content).add(scoped.selector)
  }
  return { content: [...content], document: [...document] }
}

/**
 * Properties the document passes down to its content: of a rule for the document (`body { … }`), only
 * these reach the article, so `body { display: none; color: teal }` gives the article its colour but
 * never hides it (nor sets its margins, background or layout).
 */
const INHERITED =
  /^(?:--.+|color|font(?:-[\w-]+)?|line-height|letter-spacing|word-spacing|text-(?:align|indent|transform|shadow|rendering|decoration-skip-ink|wrap|underline-offset)|white-space|word-break|overflow-wrap|hyphens|tab-size|quotes|direction|list-style(?:-[\w-]+)?|caret-color|accent-color|-webkit-font-smoothing|-moz-osx-font-smoothing)$/i

function inheritedDeclarations(body: string): string {
  return splitTopLevel(body, ';')
    .map((declaration) => declaration.trim())
    .filter((declaration) => {
      if (declaration.includes('{')) return false
      const property = /^([\w-]+)\s*:/.exec(declaration)?.[1]
      return property !== undefined && INHERITED.test(property)
    })
    .map((declaration) => `${declaration};`)
    .join(' ')
}

/** A compound naming the document or the colour mode: kept as an ancestor of the article. */
const ANCESTOR = /^(?:html|:root|body)(?![\w-])|^\[\s*data-theme|^\.dark(?![\w-])/i
/** A compound that is only the document itself: the article takes its place. */
const DOCUMENT = /^(?:html|:root|body)$/i

function scopeSelector(selector: string): { selector: string; document: boolean } | undefined {
  if (selector === '') return undefined
  const parts = compounds(selector)
  const ancestors: string[] = []
  let index = 0
  // Ancestors are joined by descendant or child combinators only.
  while (index < parts.length && ANCESTOR.test(parts[index]!.compound)) {
    ancestors.push(parts[index]!.compound)
    index++
    if (index < parts.length && !/^[\s>]*$/.test(parts[index - 1]!.combinator)) break
  }
  const rest = parts.slice(index)
  if (rest.length === 0) {
    const kept = ancestors.filter((compound) => !DOCUMENT.test(compound))
    return { selector: [...kept, CONTENT_SCOPE].join(' '), document: true }
  }
  // `body > .x` means a child of the document's root: here, a child of the article.
  const lead = parts[index - 1]?.combinator.trim() === '>' ? ' > ' : ' '
  const tail = rest.map((part, i) => part.compound + (i < rest.length - 1 ? part.combinator : '')).join('')
  const head = [...ancestors.filter((compound) => !DOCUMENT.test(compound)), CONTENT_SCOPE].join(' ')
  return { selector: `${head}${lead}${tail}`, document: false }
}

interface Compound {
  compound: string
  /** The combinator after it, as written (`' '`, `' > '`, …). */
  combinator: string
}

/** Splits a selector into compounds and the combinators between them (brackets and strings kept whole). */
function compounds(selector: string): Compound[] {
  const parts: Compound[] = []
  let current = ''
  let depth = 0
  let at = 0
  while (at < selector.length) {
    const char = selector[at]!
    if (char === '"' || char === "'") {
      const end = stringEnd(selector, at)
      current += selector.slice(at, end)
      at = end
      continue
    }
    if (char === '\\') {
      current += selector.slice(at, at + 2)
      at += 2
      continue
    }
    if (char === '(' || char === '[') depth++
    else if (char === ')' || char === ']') depth--
    if (depth === 0 && /[\s>+~]/.test(char)) {
      let end = at
      while (end < selector.length && /[\s>+~]/.test(selector[end]!)) end++
      if (current !== '') {
        parts.push({ compound: current, combinator: selector.slice(at, end) })
        current = ''
      }
      at = end
      continue
    }
    current += char
    at++
  }
  if (current !== '') parts.push({ compound: current, combinator: '' })
  return parts
}

/** Splits at `separator` outside brackets, parentheses and strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  let at = 0
  while (at < text.length) {
    const char = text[at]!
    if (char === '"' || char === "'") {
      at = stringEnd(text, at)
      continue
    }
    if (char === '\\') {
      at += 2
      continue
    }
    if (char === '(' || char === '[' || char === '{') depth++
    else if (char === ')' || char === ']' || char === '}') depth--
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, at))
      start = at + 1
    }
    at++
  }
  parts.push(text.slice(start))
  return parts
}

/** The index just past the string starting at `at`. */
function stringEnd(text: string, at: number): number {
  const quote = text[at]
  let index = at + 1
  while (index < text.length && text[index] !== quote && text[index] !== '\n') {
    index += text[index] === '\\' ? 2 : 1
  }
  return Math.min(index + 1, text.length)
}

function skipSpaceAndComments(css: string, at: number): number {
  let index = at
  for (;;) {
    while (index < css.length && /\s/.test(css[index]!)) index++
    if (css.startsWith('/*', index)) {
      const end = css.indexOf('*/', index + 2)
      index = end === -1 ? css.length : end + 2
      continue
    }
    if (css.startsWith('<!--', index) || css.startsWith('-->', index)) {
      index += css.startsWith('<!--', index) ? 4 : 3
      continue
    }
    return index
  }
}

/** The index of the `{`, `;` or stray `}` that ends the prelude starting at `at` (or the end). */
function scanPrelude(css: string, at: number): number {
  let depth = 0
  let index = at
  while (index < css.length) {
    const char = css[index]!
    if (char === '"' || char === "'") {
      index = stringEnd(css, index)
      continue
    }
    if (char === '\\') {
      index += 2
      continue
    }
    if (css.startsWith('/*', index)) {
      const end = css.indexOf('*/', index + 2)
      index = end === -1 ? css.length : end + 2
      continue
    }
    if (char === '(' || char === '[') depth++
    else if (char === ')' || char === ']') depth = Math.max(0, depth - 1)
    else if (depth === 0 && (char === '{' || char === ';' || char === '}')) return index
    index++
  }
  return css.length
}

/** The index of the `}` closing the block whose `{` is at `open` (or the end of an unclosed block). */
function matchingBrace(css: string, open: number): number {
  let depth = 0
  let index = open
  while (index < css.length) {
    const char = css[index]!
    if (char === '"' || char === "'") {
      index = stringEnd(css, index)
      continue
    }
    if (char === '\\') {
      index += 2
      continue
    }
    if (css.startsWith('/*', index)) {
      const end = css.indexOf('*/', index + 2)
      index = end === -1 ? css.length : end + 2
      continue
    }
    if (char === '{') depth++
    else if (char === '}') {
      depth--
      if (depth === 0) return index
    }
    index++
  }
  return css.length
}

/** The published bytes of the root stylesheet `bytes` (UTF-8), among the site's `rootNames`. */
export function scopeRootStylesheetBytes(bytes: Uint8Array, rootNames: readonly string[]): Uint8Array {
  return new TextEncoder().encode(scopeRootStylesheet(new TextDecoder().decode(bytes), rootNames))
}
