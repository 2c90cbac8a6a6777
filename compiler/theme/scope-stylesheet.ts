/**
 * Scopes a stylesheet the author put at the site's root (`style.css`, …) to the page's content (`.d-prose`,
 * what the author wrote), so it cannot restyle the shell (navigation, sidebar, header, the page title,
 * pagination, search). The site's Tailwind stylesheet passes through here too (compiler/theme/tailwind.ts):
 * an author's arbitrary variant (`[:root:has(&)_.d-header]:hidden`) is a selector like any other.
 *
 * Every style rule's selectors are rewritten to start inside `:where(.d-prose)` (no added
 * specificity): `.hero h1` becomes `:where(.d-prose) .hero h1`. Leading compounds that name the
 * document or the colour mode (`html`, `:root`, `body`, `[data-theme…]`, `.dark`) stay ancestors:
 * `html[data-theme="dark"] .hero` becomes `html[data-theme="dark"] :where(.d-prose) .hero`, and a
 * selector that is only such a compound (`body`, `:root`) becomes the content itself, keeping only the
 * inherited and custom properties of its rule (see INHERITED). Rules inside `@media`, `@supports`,
 * `@container`, `@layer` and `@starting-style` blocks are scoped the same way; `@font-face`,
 * `@keyframes`, `@property`, `@layer` statements and the like are kept as written (they style nothing by
 * themselves). An `@import` of anything but another root stylesheet (itself scoped) is dropped, since it
 * would arrive unscoped, and so is a block at-rule of any other name, with a warning.
 *
 * Two ways out of the article are closed on top of that:
 * - `@scope (html) { … }` would choose its own root: the root (`html`, `.card`) is scoped like a
 *   selector, so it is the content or an element inside it, and the rules of the block, which a
 *   browser keeps inside their scope, stay there.
 * - A nested rule (`.tag { … }`) is relative to its parent, an element inside the content, unless its
 *   selector holds `&` only inside a pseudo-class (`:not(&)`, `:has(&) .d-header`), which matches
 *   outside it: such a selector is wrapped as `:where(.d-prose) :is(…)`. The same holds for a nested
 *   `@scope (:has(&))`.
 *
 * The text is split into tokens and blocks exactly as a browser does (compiler/theme/css-syntax.ts), so
 * that what is kept as written (declarations, descriptor blocks) ends where the browser ends it; a
 * selector or prelude that holds a token no valid one can (a stray `)` or `}`, a bad string, a lone `\`)
 * is dropped with its rule rather than copied.
 */
import {
  blockEnd,
  isBlank,
  nextComponent,
  opensBlock,
  preprocess,
  type Token,
  tokenize,
} from './css-syntax.js'

export const CONTENT_SCOPE = ':where(.d-prose)'

/** A part of an author's stylesheet left out of the published one, at its 1-based line and column. */
export interface StylesheetWarning {
  line: number
  column: number
  message: string
}

/** At-rules whose block holds style rules, scoped like the top level (or, nested, like a rule's body). */
const GROUPING = new Set([
  'media',
  'supports',
  'container',
  'layer',
  'starting-style',
  'document',
  '-moz-document',
])

/** At-rules whose block holds descriptors or keyframes, never selectors of elements: kept as written. */
const DESCRIPTORS = new Set([
  'font-face',
  'keyframes',
  '-webkit-keyframes',
  '-moz-keyframes',
  '-o-keyframes',
  'property',
  'counter-style',
  'font-feature-values',
  'font-palette-values',
  'page',
  'position-try',
  'view-transition',
  'color-profile',
  'function',
])

/**
 * `rootNames`: the site's root stylesheets, which an `@import` may keep pointing at. What is left out
 * (besides invalid CSS a browser would drop anyway) is pushed to `warnings`.
 */
export function scopeRootStylesheet(
  css: string,
  rootNames: readonly string[] = [],
  warnings?: StylesheetWarning[],
): string {
  const sheet = new Sheet(preprocess(css.replace(/^\uFEFF/, '')), rootNames, warnings)
  return sheet.rules(0, sheet.tokens.length)
}

/** The published bytes of the root stylesheet `bytes` (UTF-8), among the site's `rootNames`. */
export function scopeRootStylesheetBytes(
  bytes: Uint8Array,
  rootNames: readonly string[],
  warnings?: StylesheetWarning[],
): Uint8Array {
  return new TextEncoder().encode(scopeRootStylesheet(new TextDecoder().decode(bytes), rootNames, warnings))
}

/** Rewrites each selector of a comma-separated list to start inside the article. */
export function scopeSelectorList(selectors: string): string {
  const sheet = new Sheet(preprocess(selectors), [], undefined)
  const scoped = sheet.scopeSelectors(0, sheet.tokens.length)
  return scoped ? [...new Set([...scoped.content, ...scoped.document])].join(', ') : ''
}

/**
 * Properties the document passes down to its content: of a rule for the document (`body { … }`), only
 * these reach the article, so `body { display: none; color: teal }` gives the article its colour but
 * never hides it (nor sets its margins, background or layout).
 */
const INHERITED =
  /^(?:--.+|color|font(?:-[\w-]+)?|line-height|letter-spacing|word-spacing|text-(?:align|indent|transform|shadow|rendering|decoration-skip-ink|wrap|underline-offset)|white-space|word-break|overflow-wrap|hyphens|tab-size|quotes|direction|list-style(?:-[\w-]+)?|caret-color|accent-color|-webkit-font-smoothing|-moz-osx-font-smoothing)$/i

/**
 * A compound naming the document or the colour mode: kept as an ancestor of the article. The name ends
 * where no name character (nor an escape, nor a non-ASCII letter) follows: `.dark\:hidden` is no `.dark`.
 */
const ANCESTOR = /^(?:(?:html|:root|body)|\.dark)(?![\w\\\u0080-\uFFFF-])|^\[\s*data-theme/i
/** A compound that is only the document itself: the article takes its place. */
const DOCUMENT = /^(?:html|:root|body)$/i
/** How deep blocks may nest (rules in rules, at-rules in at-rules). */
const MAX_DEPTH = 64
/** Pseudo-elements that may be written with one colon. */
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter'])

interface Compound {
  compound: string
  /** The combinator after it, as written (`' '`, `' > '`, …). */
  combinator: string
}

/** One stylesheet's tokens, and the rewriting of its parts (token ranges are `[from, to)`). */
class Sheet {
  readonly tokens: Token[]
  readonly #css: string
  readonly #rootNames: ReadonlySet<string>
  readonly #warnings: StylesheetWarning[] | undefined

  constructor(css: string, rootNames: readonly string[], warnings: StylesheetWarning[] | undefined) {
    this.#css = css
    this.tokens = tokenize(css)
    this.#rootNames = new Set(rootNames.map((name) => name.toLowerCase()))
    this.#warnings = warnings
  }

  /** A list of rules where style rules are not nested: the stylesheet, or a grouping at-rule in it. */
  rules(from: number, to: number, depth = 0): string {
    const { tokens } = this
    if (this.#tooDeep(from, depth)) return ''
    const out: string[] = []
    let at = from
    while (at < to) {
      const token = tokens[at]!
      if (isBlank(token) || token.type === 'cdo' || token.type === 'cdc' || token.type === ';') {
        at++
        continue
      }
      const start = at
      const open = this.#preludeEnd(start, to)
      if (open >= to || tokens[open]!.type === ';') {
        const prelude = this.#trimmed(start, open)
        // Only an at-rule may end without a block; a rule whose prelude runs out is invalid and dropped.
        if (token.type === 'at-keyword' && this.#keepStatement(token, start, open)) out.push(`${prelude};`)
        at = open + 1
        continue
      }
      const close = Math.min(blockEnd(tokens, open), to)
      at = close + 1
      if (token.type === 'at-keyword') {
        const rule = this.#topAtRule(token, start, open, close, depth)
        if (rule !== undefined) out.push(rule)
        continue
      }
      const scoped = this.scopeSelectors(start, open)
      if (!scoped) continue
      const { content, document } = scoped
      if (content.length > 0) out.push(`${content.join(', ')} {${this.#body(open + 1, close, depth + 1)}}`)
      const passed = document.length > 0 ? this.#inheritedDeclarations(open + 1, close) : ''
      if (passed !== '') out.push(`${document.join(', ')} { ${passed} }`)
    }
    return out.map((part) => `${part}\n`).join('')
  }

  /**
   * A style rule's block as written, but for its nested rules, whose selectors are kept inside the
   * element the rule styles, and nested at-rules other than grouping ones and `@scope`, left out.
   */
  #body(from: number, to: number, depth: number): string {
    const { tokens } = this
    if (this.#tooDeep(from, depth)) return ''
    const edits: { from: number; to: number; text: string }[] = []
    let at = from
    while (at < to) {
      const token = tokens[at]!
      if (isBlank(token) || token.type === ';') {
        at++
        continue
      }
      // `--x: { … }` is a declaration whatever its value holds.
      if (this.#isCustomProperty(at, to)) {
        at = this.#declarationEnd(at, to) + 1
        continue
      }
      const start = at
      const open = this.#preludeEnd(start, to)
      if (open >= to || tokens[open]!.type === ';') {
        at = open + 1
        continue
      }
      const close = Math.min(blockEnd(tokens, open), to)
      at = close + 1
      const edit = {
        from: this.#offset(start),
        to: this.#offset(Math.min(close + 1, tokens.length)),
        text: '',
      }
      edits.push(edit)
      if (token.type === 'at-keyword') {
        const name = token.value.toLowerCase()
        if (GROUPING.has(name) && this.#isClean(start, open))
          edit.text = `${this.#trimmed(start, open)} {${this.#body(open + 1, close, depth + 1)}}`
        else if (name === 'scope') {
          const prelude = this.#nestedScopePrelude(start, open)
          if (prelude !== undefined) edit.text = `${prelude} {${this.#text(open + 1, close)}}`
        } else if (!GROUPING.has(name))
          this.#warn(token, `Unexpected \`@${token.value}\` block inside a style rule`)
        continue
      }
      const selectors = this.#nestedSelectors(start, open)
      if (selectors !== undefined) edit.text = `${selectors} {${this.#body(open + 1, close, depth + 1)}}`
    }
    let out = ''
    let copied = this.#offset(from)
    for (const edit of edits) {
      out += this.#css.slice(copied, edit.from) + edit.text
      copied = edit.to
    }
    return out + this.#css.slice(copied, this.#offset(to))
  }

  /**
   * The scoped selectors of a list, apart: `content` for those inside the article, `document` for those
   * that named only the document (`body`, `html.dark`), which now name the article itself. `undefined`
   * when the list holds a token no selector can.
   */
  scopeSelectors(from: number, to: number): { content: string[]; document: string[] } | undefined {
    const content = new Set<string>()
    const document = new Set<string>()
    for (const [start, end] of this.#splitCommas(from, to)) {
      if (!this.#isClean(start, end)) return undefined
      const scoped = this.#scopeSelector(start, end)
      if (scoped) (scoped.document ? document : content).add(scoped.selector)
    }
    return { content: [...content], document: [...document] }
  }

  #scopeSelector(from: number, to: number): { selector: string; document: boolean } | undefined {
    const parts = this.#compounds(from, to)
    if (parts.length === 0) return undefined
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

  /** Splits a selector into compounds and the combinators between them (blocks and strings kept whole). */
  #compounds(from: number, to: number): Compound[] {
    const { tokens } = this
    const parts: Compound[] = []
    let current: Compound | undefined
    let at = from
    while (at < to) {
      const token = tokens[at]!
      const combines =
        token.type === 'whitespace' ||
        (token.type === 'delim' && '>+~'.includes(token.value)) ||
        // A comment after a combinator is part of it; inside a compound, part of that.
        (token.type === 'comment' && current?.combinator !== '')
      if (combines) {
        if (current) current.combinator += this.#text(at, at + 1)
        at++
        continue
      }
      if (current?.combinator !== '') {
        current = { compound: '', combinator: '' }
        parts.push(current)
      }
      const next = nextComponent(tokens, at)
      current.compound += this.#text(at, next)
      at = next
    }
    const last = parts.at(-1)
    if (last) last.combinator = ''
    return parts
  }

  /**
   * The selectors of a nested rule, each kept inside the content: one with `&` only inside a
   * pseudo-class's parentheses can match outside its parent, so it is wrapped in the content.
   */
  #nestedSelectors(from: number, to: number): string | undefined {
    const selectors: string[] = []
    for (const [start, end] of this.#splitCommas(from, to)) {
      const text = this.#trimmed(start, end)
      if (text === '' || !this.#isClean(start, end)) return undefined
      selectors.push(this.#leavesParent(start, end) ? this.#insideContent(start, end) : text)
    }
    return selectors.join(', ')
  }

  /** Whether a nested selector may match outside its parent: it holds `&`, but none outside parentheses. */
  #leavesParent(from: number, to: number): boolean {
    const { tokens } = this
    const isNesting = (token: Token) => token.type === 'delim' && token.value === '&'
    if (!tokens.slice(from, to).some(isNesting)) return false
    for (let at = from; at < to; at = nextComponent(tokens, at)) if (isNesting(tokens[at]!)) return false
    return true
  }

  /** `:where(.d-prose) :is(S)`, with a trailing pseudo-element (which `:is()` cannot hold) after it. */
  #insideContent(start: number, end: number): string {
    const { tokens } = this
    let from = start
    let to = end
    while (from < to && isBlank(tokens[from])) from++
    while (to > from && isBlank(tokens[to - 1])) to--
    let split = to
    for (let at = from; at < to; at = nextComponent(tokens, at)) {
      const token = tokens[at]!
      if (token.type === 'whitespace' || (token.type === 'delim' && '>+~'.includes(token.value))) split = to
      else if (split === to && token.type === ':') {
        const next = tokens[at + 1]
        const legacy = next?.type === 'ident' && LEGACY_PSEUDO_ELEMENTS.has(next.value.toLowerCase())
        if (next?.type === ':' || legacy) split = at
      }
    }
    const base = this.#trimmed(from, split) || '*'
    return `${CONTENT_SCOPE} :is(${base})${this.#trimmed(split, to)}`
  }

  /** A top-level at-rule with a block, rewritten, kept, or left out (`undefined`). */
  #topAtRule(token: Token, from: number, open: number, close: number, depth: number): string | undefined {
    const name = token.value.toLowerCase()
    if (name === 'scope') {
      const prelude = this.#topScopePrelude(from, open)
      return prelude === undefined ? undefined : `${prelude} {${this.#text(open + 1, close)}}`
    }
    if (!GROUPING.has(name) && !DESCRIPTORS.has(name)) {
      this.#warn(token, `Unexpected \`@${token.value}\` block`)
      return undefined
    }
    if (!this.#isClean(from, open)) return undefined
    const prelude = this.#trimmed(from, open)
    return GROUPING.has(name)
      ? `${prelude} {\n${this.rules(open + 1, close, depth + 1)}}`
      : `${prelude} {${this.#text(open + 1, close)}}`
  }

  /** `@scope (start) to (limit)` with its root inside the content (the content itself when it had none). */
  #topScopePrelude(from: number, open: number): string | undefined {
    const parts = this.#scopeParts(from, open)
    if (!parts) return undefined
    let start = CONTENT_SCOPE
    if (parts.start) {
      const scoped = this.scopeSelectors(parts.start[0], parts.start[1])
      if (!scoped) return undefined
      const all = [...new Set([...scoped.content, ...scoped.document])]
      if (all.length > 0) start = all.join(', ')
    }
    const limit = parts.limit ? ` to (${this.#trimmed(parts.limit[0], parts.limit[1])})` : ''
    return `@scope (${start})${limit}`
  }

  /** A nested `@scope`: its root is relative to the parent rule, unless it reaches out with `:has(&)`. */
  #nestedScopePrelude(from: number, open: number): string | undefined {
    const parts = this.#scopeParts(from, open)
    if (!parts) return undefined
    const start = parts.start ? this.#nestedSelectors(parts.start[0], parts.start[1]) : ''
    if (start === undefined) return undefined
    const limit = parts.limit ? ` to (${this.#trimmed(parts.limit[0], parts.limit[1])})` : ''
    return `@scope${start ? ` (${start})` : ''}${limit}`
  }

  /** The token ranges inside `(start)` and `to (limit)` of an `@scope` prelude; `undefined` when invalid. */
  #scopeParts(
    from: number,
    open: number,
  ): { start?: [number, number]; limit?: [number, number] } | undefined {
    const { tokens } = this
    const skip = (index: number) => {
      let at = index
      while (at < open && isBlank(tokens[at])) at++
      return at
    }
    const parts: { start?: [number, number]; limit?: [number, number] } = {}
    let at = skip(from + 1)
    if (at < open && tokens[at]!.type === '(') {
      const close = blockEnd(tokens, at)
      if (close >= open) return undefined
      parts.start = [at + 1, close]
      at = skip(close + 1)
    }
    if (at < open && tokens[at]!.type === 'ident' && tokens[at]!.value.toLowerCase() === 'to') {
      at = skip(at + 1)
      if (at >= open || tokens[at]!.type !== '(') return undefined
      const close = blockEnd(tokens, at)
      if (close >= open) return undefined
      parts.limit = [at + 1, close]
      at = skip(close + 1)
    }
    if (at < open) return undefined
    for (const range of [parts.start, parts.limit])
      if (range && !this.#isClean(range[0], range[1])) return undefined
    return parts
  }

  /** `@import` only of another root stylesheet; every other statement at-rule as written. */
  #keepStatement(token: Token, from: number, to: number): boolean {
    if (!this.#isClean(from, to)) return false
    if (token.value.toLowerCase() !== 'import') return true
    const { tokens } = this
    let at = from + 1
    while (at < to && isBlank(tokens[at])) at++
    let target = ''
    const first = tokens[at]
    if (first?.type === 'string') target = this.#text(at, at + 1).slice(1, -1)
    else if (first?.type === 'url') target = /^url\(\s*(.*?)\s*\)$/is.exec(this.#text(at, at + 1))?.[1] ?? ''
    else if (first?.type === 'function' && first.value.toLowerCase() === 'url') {
      let inner = at + 1
      while (inner < to && isBlank(tokens[inner])) inner++
      if (tokens[inner]?.type === 'string') target = this.#text(inner, inner + 1).slice(1, -1)
    }
    // Compared as written: an escaped name matches no root stylesheet, and is dropped.
    return target !== '' && this.#rootNames.has(target.replace(/^(?:\.\/|\/)/, '').toLowerCase())
  }

  #inheritedDeclarations(from: number, to: number): string {
    const { tokens } = this
    const kept: string[] = []
    let at = from
    while (at < to) {
      if (isBlank(tokens[at]) || tokens[at]!.type === ';') {
        at++
        continue
      }
      const end = this.#declarationEnd(at, to)
      const name = tokens[at]!
      let colon = at + 1
      while (colon < end && isBlank(tokens[colon])) colon++
      const isDeclaration = name.type === 'ident' && tokens[colon]?.type === ':'
      if (isDeclaration && INHERITED.test(name.value) && this.#isClean(at, end))
        kept.push(`${this.#trimmed(at, end)};`)
      at = end + 1
    }
    return kept.join(' ')
  }

  /** `--name` then `:`: a custom property, whose value may hold anything but a top-level `;`. */
  #isCustomProperty(at: number, to: number): boolean {
    const { tokens } = this
    const name = tokens[at]!
    if (name.type !== 'ident' || !name.value.startsWith('--')) return false
    let colon = at + 1
    while (colon < to && isBlank(tokens[colon])) colon++
    return tokens[colon]?.type === ':'
  }

  /** The `;` ending the declaration at `at` (or `to`). */
  #declarationEnd(at: number, to: number): number {
    let index = at
    while (index < to && this.tokens[index]!.type !== ';') index = nextComponent(this.tokens, index)
    return Math.min(index, to)
  }

  /** The `{` or `;` that ends the prelude starting at `at` (or `to`). */
  #preludeEnd(at: number, to: number): number {
    let index = at
    while (index < to && this.tokens[index]!.type !== '{' && this.tokens[index]!.type !== ';')
      index = nextComponent(this.tokens, index)
    return Math.min(index, to)
  }

  /** The ranges of a list split at its top-level commas. */
  #splitCommas(from: number, to: number): [number, number][] {
    const ranges: [number, number][] = []
    let start = from
    let at = from
    while (at < to) {
      if (this.tokens[at]!.type === ',') {
        ranges.push([start, at])
        start = at + 1
        at++
      } else at = nextComponent(this.tokens, at)
    }
    ranges.push([start, to])
    return ranges
  }

  /**
   * Whether a selector or prelude can be copied into the output: every block closes inside it, and it
   * holds no stray closer, no `{`, `}` or `;`, no bad or unterminated string, URL or comment, and no lone
   * `\` (which would escape the text written after it). No valid selector or prelude holds one.
   */
  #isClean(from: number, to: number): boolean {
    const { tokens } = this
    for (let at = from; at < to; at++) {
      const token = tokens[at]!
      const text = this.#css.slice(token.start, token.end)
      switch (token.type) {
        case 'bad-string':
        case 'bad-url':
        case '{':
        case '}':
        case ';':
          return false
        case 'delim':
          if (token.value === '\\') return false
          break
        case 'comment':
          if (text.length < 4 || !text.endsWith('*/')) return false
          break
        case 'string':
          if (text.length < 2 || !text.endsWith(text[0]!) || /(?<!\\)(?:\\\\)*\\.$/s.test(text)) return false
          break
        case 'url':
          if (!text.endsWith(')')) return false
          break
      }
    }
    return this.#balanced(from, to)
  }

  /** Every block in `[from, to)` closes inside it, and no closer stands without its opener. */
  #balanced(from: number, to: number): boolean {
    const { tokens } = this
    const open: number[] = []
    for (let at = from; at < to; at++) {
      const token = tokens[at]!
      const innermost = open.at(-1)
      if (innermost !== undefined && blockEnd(tokens, innermost) === at) open.pop()
      else if (opensBlock(token)) {
        if (blockEnd(tokens, at) >= to) return false
        open.push(at)
      } else if (token.type === ')' || token.type === ']' || token.type === '}') return false
    }
    return open.length === 0
  }

  /** Blocks nested deeper than MAX_DEPTH are left out (with one warning): no stylesheet needs them. */
  #tooDeep(from: number, depth: number): boolean {
    if (depth <= MAX_DEPTH) return false
    if (!this.#warnedDepth) {
      this.#warnedDepth = true
      const token = this.tokens[from - 1] ?? this.tokens[0]
      if (token) this.#warn(token, `Unexpected block nested more than ${MAX_DEPTH} levels deep`)
    }
    return true
  }

  #warnedDepth = false

  #text(from: number, to: number): string {
    return this.#css.slice(this.#offset(from), this.#offset(to))
  }

  #trimmed(from: number, to: number): string {
    let start = from
    let end = to
    while (start < end && isBlank(this.tokens[start])) start++
    while (end > start && isBlank(this.tokens[end - 1])) end--
    return this.#text(start, end)
  }

  /** The offset where token `index` starts (the end of the text past the last). */
  #offset(index: number): number {
    return index < this.tokens.length ? this.tokens[index]!.start : this.#css.length
  }

  #warn(token: Token, what: string): void {
    const before = this.#css.slice(0, token.start)
    this.#warnings?.push({
      line: before.split('\n').length,
      column: token.start - before.lastIndexOf('\n'),
      message: `${what}, expected a style rule or one of @media, @supports, @container, @layer, @scope, @starting-style, @font-face, @keyframes, @property; it is left out, since a root stylesheet styles only the page's content`,
    })
  }
}
