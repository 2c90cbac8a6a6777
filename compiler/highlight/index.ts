/**
 * Syntax highlighting with shiki: one highlighter per process, light and dark themes in one pass
 * (CSS variables `--shiki-light` / `--shiki-dark`, switched by the colour mode), grammars loaded only
 * when a page first uses them, and results cached by a hash of everything that shapes the output, so
 * a rebuild with unchanged code blocks makes no shiki call at all.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Element, Root } from 'hast'
import {
  type BundledLanguage,
  bundledLanguages,
  bundledLanguagesAlias,
  bundledLanguagesInfo,
  createHighlighter as createShiki,
  type HighlighterGeneric,
} from 'shiki'
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript'
import { cloneTree } from '../clone-tree.js'
import { PairedTokenizer, type TextmateGrammar } from './paired-themes.js'

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const

export interface Highlighter {
  /**
   * The `<pre class="shiki">` element for `code` in `lang`; `undefined` when the language is unknown
   * (the caller renders plain text and reports it). Each call returns a fresh tree the caller may change.
   */
  highlight(code: string, lang: string): Promise<Element | undefined>
  /** Whether shiki knows `lang` (a language id or an alias such as `sh`, `py`, `c++`). */
  knows(lang: string): boolean
  /** The number of real shiki calls made so far (cache misses), process-wide. */
  readonly calls: number
}

type Shiki = HighlighterGeneric<BundledLanguage, 'github-light' | 'github-dark'>

/** Languages that need no grammar: highlighted as plain text by shiki itself. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext'])

/** Fence names in common use that shiki spells differently. */
const ALIASES: Record<string, string> = { env: 'dotenv', 'shell-session': 'shellsession' }

const languageId = (lang: string): string => {
  const id = lang.toLowerCase()
  // Own keys only: a fence named `constructor` or `toString` must not find Object.prototype's members.
  return Object.hasOwn(ALIASES, id) ? ALIASES[id]! : id
}

/** Whether shiki bundles a grammar of this id or alias (own keys only, as above). */
const isBundled = (id: string): boolean =>
  Object.hasOwn(bundledLanguages, id) || Object.hasOwn(bundledLanguagesAlias, id)

export interface HighlighterOptions {
  /** Tokenise each block once for both themes (default); off, shiki tokenises once per theme. */
  sharedTokenization?: boolean
  /**
   * `javascript` (default): grammars' patterns run as native RegExps, in the thread's own heap.
   * `oniguruma`: shiki's WebAssembly engine, whose memory (about 150 MB a thread once a site's
   * grammars are in use) only ever grows. Both give the same output (test/compiler/highlight/engine.test.ts);
   * a grammar the JavaScript engine refuses is highlighted with oniguruma.
   */
  engine?: 'javascript' | 'oniguruma'
}

/**
 * Grammar patterns converted to JavaScript RegExps, shared by every instance on this thread: an md or
 * mdx block's own instance (see `#instanceFor`) reuses what the thread's instance converted. A RegExp is
 * only ever run synchronously from a `lastIndex` set just before, so sharing one is safe.
 */
const convertedPatterns = new Map<string, RegExp | Error>()

const newShiki = (engine: HighlighterOptions['engine']): Promise<Shiki> =>
  createShiki({
    themes: [THEMES.light, THEMES.dark],
    langs: [],
    ...(engine === 'oniguruma' ? {} : { engine: createJavaScriptRegexEngine({ cache: convertedPatterns }) }),
  }) as Promise<Shiki>

/** A highlighter of its own, not the process's: for comparing options side by side. */
export async function createSeparateHighlighter(options: HighlighterOptions): Promise<Highlighter> {
  return new CachingHighlighter(await newShiki(options.engine), options)
}

let instance: Promise<Highlighter> | undefined

/** The process's highlighter, created on first use; every later call returns the same one. */
export function createHighlighter(): Promise<Highlighter> {
  instance ??= newShiki('javascript').then((shiki) => new CachingHighlighter(shiki))
  return instance
}

const shikiVersion = (): string => {
  try {
    // Resolved like the import above: an installed docsctl finds shiki hoisted beside it, not inside it.
    const manifest = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('shiki/package.json'), 'utf8'),
    )
    return String((manifest as { version?: unknown }).version ?? 'unknown')
  } catch {
    return 'unknown'
  }
}

/**
 * Code kept highlighted per thread, in characters of source, the least recently used block dropped
 * first. A block's tree takes about 75 bytes per character of its code (measured on pipecat), so a
 * thread's cache stays near 5 MB however large the site (or however many sites a server builds): a
 * count of blocks instead let a site of long blocks hold 20 MB a thread, for no fewer shiki calls.
 */
const MAX_CACHED_CHARACTERS = 64 * 1024

class CachingHighlighter implements Highlighter {
  #shiki: Shiki
  #cache = new Map<string, { pre: Element; characters: number }>()
  #cachedCharacters = 0
  /** Per grammar: the languages it embeds lazily (none: it is loaded into the thread's instance). */
  #loading = new Map<string, Promise<string[]>>()
  #embedding = new Map<string, Promise<Shiki>>()
  #salt = `${shikiVersion()}\0${THEMES.light}\0${THEMES.dark}`
  #paired = new PairedTokenizer()
  #themesKnown = false
  /** Shiki on oniguruma, started only for a grammar the JavaScript engine cannot run. */
  #fallback: Promise<Shiki> | undefined
  readonly #shareThemes: boolean
  readonly #engine: HighlighterOptions['engine']
  calls = 0

  constructor(shiki: Shiki, options: HighlighterOptions = {}) {
    this.#shiki = shiki
    this.#shareThemes = options.sharedTokenization ?? true
    this.#engine = options.engine
  }

  knows(lang: string): boolean {
    const id = languageId(lang)
    return PLAIN.has(id) || isBundled(id)
  }

  async highlight(code: string, lang: string): Promise<Element | undefined> {
    const id = languageId(lang)
    if (!this.knows(id)) return undefined
    const key = createHash('sha256').update(`${this.#salt}\0${id}\0${code}`).digest('hex')
    const cached = this.#cache.get(key)
    if (cached) {
      this.#cache.delete(key)
      this.#cache.set(key, cached)
      return cloneTree(cached.pre)
    }
    const shiki = PLAIN.has(id) ? this.#shiki : await this.#instanceFor(id, code)
    if (shiki === this.#shiki && !PLAIN.has(id)) this.#sharePasses(id)
    this.calls++
    const options = {
      lang: PLAIN.has(id) ? 'text' : id,
      themes: THEMES,
      defaultColor: false,
      // shiki stops tokenizing a line after 500 ms of wall time by default: on a loaded machine the
      // same block then comes out differently (even between its light and dark passes). Output must
      // be deterministic; a runaway page is ended by the page deadline instead.
      tokenizeTimeLimit: 0,
    } as const
    let root: Root
    try {
      root = this.#paired.during(() => shiki.codeToHast(code, options))
    } catch (error) {
      // A pattern the JavaScript engine cannot translate: this grammar runs on oniguruma instead.
      if (PLAIN.has(id) || this.#engine === 'oniguruma') throw error
      this.#fallback ??= newShiki('oniguruma')
      const fallback = await this.#fallback
      await fallback.loadLanguage(id as BundledLanguage)
      root = fallback.codeToHast(code, options)
    }
    const pre = root.children.find((node): node is Element => node.type === 'element')
    if (!pre) return undefined
    this.#remember(key, pre, code.length)
    return cloneTree(pre)
  }

  #remember(key: string, pre: Element, characters: number): void {
    if (characters > MAX_CACHED_CHARACTERS) return
    this.#cache.set(key, { pre, characters })
    this.#cachedCharacters += characters
    for (const [oldest, entry] of this.#cache) {
      if (this.#cachedCharacters <= MAX_CACHED_CHARACTERS) break
      this.#cache.delete(oldest)
      this.#cachedCharacters -= entry.characters
    }
  }

  /** Let the light and dark passes over `id`'s code share one tokenisation (paired-themes.ts). */
  #sharePasses(id: string): void {
    if (!this.#shareThemes || this.#paired.disabled) return
    const internal = this.#shiki.getInternalContext()
    const grammar = internal.getLanguage(id) as unknown as TextmateGrammar
    if (!this.#themesKnown) {
      const registry = grammar.themeProvider as { _theme?: unknown }
      internal.setTheme(THEMES.light)
      const light = registry._theme
      internal.setTheme(THEMES.dark)
      this.#paired.setThemes(light, registry._theme)
      this.#themesKnown = true
    }
    this.#paired.prepare(grammar)
  }

  /**
   * The shiki instance that highlights `code` in `id`. Most grammars share the thread's instance, each
   * loaded once even when several pages ask for it at the same time. A grammar that embeds others only
   * when they happen to be loaded (`embeddedLangsLazy`: the fenced code and front matter of Markdown
   * and MDX, Ruby's HAML) is highlighted by an instance holding exactly the languages this block can
   * use: its front matter and JSX, and the languages its fences name. So the block comes out the same
   * whichever pages came before it, with its fences coloured.
   */
  async #instanceFor(id: string, code: string): Promise<Shiki> {
    let loading = this.#loading.get(id)
    if (!loading) {
      loading = lazyEmbeds(id).then(async (lazy) => {
        if (lazy.length === 0) await this.#shiki.loadLanguage(id as BundledLanguage)
        return lazy
      })
      this.#loading.set(id, loading)
    }
    const lazy = await loading
    if (lazy.length === 0) return this.#shiki
    const langs = embedsOf(code, lazy)
    const key = `${id}\0${langs.join(',')}`
    let own = this.#embedding.get(key)
    if (own) {
      this.#embedding.delete(key)
    } else {
      own = newShiki(this.#engine).then(async (shiki) => {
        await shiki.loadLanguage(id as BundledLanguage, ...(langs as BundledLanguage[]))
        return shiki
      })
    }
    this.#embedding.set(key, own)
    if (this.#embedding.size > MAX_EMBEDDING_INSTANCES)
      this.#embedding.delete(this.#embedding.keys().next().value!)
    return own
  }
}

/** Shiki instances for blocks of embedding grammars, by grammar and the languages loaded into them. */
const MAX_EMBEDDING_INSTANCES = 16

/** Embedded languages a Markdown-like block always gets when its grammar embeds them: JSX and front matter. */
const ALWAYS_EMBEDDED = ['tsx', 'yaml', 'toml']

/** Canonical shiki language ids by every name and alias. */
const canonicalIds = new Map<string, string>(
  bundledLanguagesInfo.flatMap((info) => [
    [info.id, info.id] as const,
    ...(info.aliases ?? []).map((alias) => [alias, info.id] as const),
  ]),
)

/** Fence openings (```lang, ~~~lang) at the start of a line, indented or quoted or not. */
const FENCE = /^[\t >]*(?:`{3,}|~{3,})[\t ]*([\w#+.-]+)/gm

/** The lazily embedded languages `code` uses, sorted: the always-embedded ones and those its fences name. */
function embedsOf(code: string, lazy: readonly string[]): string[] {
  const wanted = new Set(ALWAYS_EMBEDDED.filter((lang) => lazy.includes(lang)))
  for (const match of code.matchAll(FENCE)) {
    const canonical = canonicalIds.get(languageId(match[1]!))
    if (canonical && lazy.includes(canonical)) wanted.add(canonical)
  }
  return [...wanted].sort()
}

/** Languages `id`'s grammar, or one it brings along, embeds only if they are loaded already. */
async function lazyEmbeds(id: string): Promise<string[]> {
  if (!isBundled(id)) return []
  const load = bundledLanguages[id as BundledLanguage] ?? bundledLanguagesAlias[id]
  if (!load) return []
  const { default: registrations } = await load()
  return [...new Set(registrations.flatMap((registration) => registration.embeddedLangsLazy ?? []))]
}
