/**
 * One tokenisation for two themes. shiki highlights a block for light and dark by tokenising it once
 * per theme, though only the colours differ: the grammar's regular expressions, most of the cost, run
 * twice. Here the light pass tokenises each line once with a paired theme (every colour a pair of the
 * light and dark colours) and the dark pass reads the same tokens back, each pass seeing its own
 * theme's colours. shiki's own code still aligns the passes and makes the HTML, so the output is the
 * same as two tokenisations (test/compiler/highlight/paired-themes.test.ts compares them).
 *
 * This reaches into vscode-textmate's registry (`_theme`), so it checks what it needs on first use and
 * stands aside, leaving shiki's two passes, whenever anything is not as expected.
 */

/** vscode-textmate's style of a scope: `fontStyle` -1 and colour ids 0 mean "inherit". */
interface StyleAttributes {
  fontStyle: number
  foregroundId: number
  backgroundId: number
}

interface ScopePath {
  parent: ScopePath | null
  scopeName: string
}

interface TextmateTheme {
  match(scopePath: ScopePath | null): StyleAttributes | null
  getDefaults(): StyleAttributes
  getColorMap(): string[]
}

interface ThemeRegistry {
  _theme: TextmateTheme
}

interface TokenizeResult {
  tokens: Uint32Array
  ruleStack: object
  stoppedEarly: boolean
}

export interface TextmateGrammar {
  readonly themeProvider: unknown
  tokenizeLine2(line: string, state: object | null, timeLimit?: number): TokenizeResult
}

/** Light and dark style of one token: [font, foreground, background] for each. */
type Pair = readonly [number, number, number, number, number, number]

/** Colour ids have 9 bits in a token's metadata; past that many pairs, shiki's two passes are used. */
const MAX_PAIRS = 511

/** Tokenised lines kept across calls before the cache starts afresh. */
const MAX_CACHED_LINES = 50_000

// vscode-textmate's token metadata: language, token type and bracket bits below bit 11, then the
// font style (4 bits), foreground (9 bits) and background (8 bits).
const KEEP_BITS = 0b111_1111_1111
const FONT_OFFSET = 11
const FOREGROUND_OFFSET = 15
const BACKGROUND_OFFSET = 24

/** The style a scope path resolves to in `theme`, inheriting unset parts from its parents. */
function resolvedStyle(theme: TextmateTheme, path: ScopePath | null): [number, number, number] {
  let font = -1
  let foreground = 0
  let background = 0
  for (
    let scope = path;
    scope && (font === -1 || foreground === 0 || background === 0);
    scope = scope.parent
  ) {
    const style = theme.match(scope)
    if (!style) continue
    if (font === -1) font = style.fontStyle
    if (foreground === 0) foreground = style.foregroundId
    if (background === 0) background = style.backgroundId
  }
  const defaults = theme.getDefaults()
  return [
    font === -1 ? defaults.fontStyle : font,
    foreground === 0 ? defaults.foregroundId : foreground,
    background === 0 ? defaults.backgroundId : background,
  ]
}

/** A theme whose colour ids stand for pairs of light and dark styles. */
class PairedTheme implements TextmateTheme {
  readonly pairs: Pair[] = [[0, 0, 0, 0, 0, 0]]
  readonly #ids = new Map<string, number>()
  readonly #byPath = new WeakMap<ScopePath, StyleAttributes>()
  full = false

  constructor(
    readonly light: TextmateTheme,
    readonly dark: TextmateTheme,
  ) {}

  match(scopePath: ScopePath | null): StyleAttributes | null {
    if (scopePath === null) return this.getDefaults()
    let style = this.#byPath.get(scopePath)
    if (!style) {
      style = this.#style([...resolvedStyle(this.light, scopePath), ...resolvedStyle(this.dark, scopePath)])
      this.#byPath.set(scopePath, style)
    }
    return style
  }

  getDefaults(): StyleAttributes {
    const light = this.light.getDefaults()
    const dark = this.dark.getDefaults()
    return this.#style([
      light.fontStyle,
      light.foregroundId,
      light.backgroundId,
      dark.fontStyle,
      dark.foregroundId,
      dark.backgroundId,
    ])
  }

  getColorMap(): string[] {
    return []
  }

  /** Font style and background stay constant: the pair id alone tells tokens apart. */
  #style(pair: Pair): StyleAttributes {
    const key = pair.join(',')
    let id = this.#ids.get(key)
    if (id === undefined) {
      id = this.pairs.length
      if (id > MAX_PAIRS) {
        this.full = true
        id = 1
      } else {
        this.pairs.push(pair)
        this.#ids.set(key, id)
      }
    }
    return { fontStyle: 0, foregroundId: id, backgroundId: 0 }
  }
}

class PairsExhausted extends Error {}

/** Tokens of the paired theme rewritten to one side's metadata. */
function sideOf(tokens: Uint32Array, pairs: readonly Pair[], side: 0 | 3): Uint32Array {
  const out = new Uint32Array(tokens.length)
  for (let index = 0; index < tokens.length; index += 2) {
    out[index] = tokens[index]!
    const metadata = tokens[index + 1]!
    const pair = pairs[(metadata >>> FOREGROUND_OFFSET) & 0x1ff]!
    out[index + 1] =
      ((metadata & KEEP_BITS) |
        (pair[side] << FONT_OFFSET) |
        (pair[side + 1]! << FOREGROUND_OFFSET) |
        (pair[side + 2]! << BACKGROUND_OFFSET)) >>>
      0
  }
  return out
}

/**
 * Shares tokenisation between a light and a dark pass over the same code: call `during` around one
 * shiki call that highlights with both themes, after `prepare(grammar)` for its grammar.
 */
export class PairedTokenizer {
  #paired: PairedTheme | undefined
  #light: TextmateTheme | undefined
  #dark: TextmateTheme | undefined
  #wrapped = new WeakSet<TextmateGrammar>()
  /**
   * Line results by grammar, then by the state the line started in, kept from one call to the next:
   * a cached line hands back the same end state, so the next line finds its own entry too, and blocks
   * that differ in a few lines (request samples of one API) tokenise only those lines.
   */
  #lines = new WeakMap<TextmateGrammar, Map<object | null, Map<string, TokenizeResult>>>()
  #cachedLines = 0
  #active = false
  disabled = false

  /** Remember the two themes' textmate objects, as shiki's registry holds them after `setTheme`. */
  setThemes(light: unknown, dark: unknown): void {
    if (!isTheme(light) || !isTheme(dark)) {
      this.disabled = true
      return
    }
    this.#light = light
    this.#dark = dark
    this.#paired = new PairedTheme(light, dark)
  }

  /** Route a grammar's line tokenisation through the shared results. */
  prepare(grammar: TextmateGrammar): void {
    if (this.disabled || this.#wrapped.has(grammar)) return
    const registry = grammar.themeProvider as Partial<ThemeRegistry> | undefined
    if (!registry || !isTheme(registry._theme)) {
      this.disabled = true
      return
    }
    const tokenizeLine2 = grammar.tokenizeLine2.bind(grammar)
    const themes = registry as ThemeRegistry
    grammar.tokenizeLine2 = (line, state, timeLimit) => {
      const paired = this.#paired
      const side = themes._theme === this.#light ? 0 : themes._theme === this.#dark ? 3 : undefined
      if (this.disabled || !this.#active || !paired || side === undefined)
        return tokenizeLine2(line, state, timeLimit)
      let lines = this.#lines.get(grammar)
      if (!lines) {
        lines = new Map()
        this.#lines.set(grammar, lines)
      }
      let byLine = lines.get(state)
      if (!byLine) {
        byLine = new Map()
        lines.set(state, byLine)
      }
      let result = byLine.get(line)
      if (!result) {
        const current = themes._theme
        themes._theme = paired
        try {
          result = tokenizeLine2(line, state, timeLimit)
        } finally {
          themes._theme = current
        }
        // A bounded cache: past the limit, start afresh (states of dropped lines are freed with them).
        if (++this.#cachedLines > MAX_CACHED_LINES) {
          this.#lines = new WeakMap()
          this.#cachedLines = 1
          lines = new Map([[state, byLine]])
          this.#lines.set(grammar, lines)
        }
        byLine.set(line, result)
      }
      // Too many distinct pairs for the metadata's colour bits: start this block again with two passes.
      if (paired.full) throw new PairsExhausted()
      return { ...result, tokens: sideOf(result.tokens, paired.pairs, side) }
    }
    this.#wrapped.add(grammar)
  }

  /** Run one two-theme highlight with shared tokenisation (and lines tokenised by earlier calls). */
  during<T>(highlight: () => T): T {
    if (this.disabled) return highlight()
    this.#active = true
    try {
      return highlight()
    } catch (error) {
      if (!(error instanceof PairsExhausted)) throw error
      this.disabled = true
    } finally {
      this.#active = false
    }
    return highlight()
  }
}

function isTheme(value: unknown): value is TextmateTheme {
  const theme = value as Partial<TextmateTheme> | null
  return (
    typeof theme?.match === 'function' &&
    typeof theme.getDefaults === 'function' &&
    typeof theme.getColorMap === 'function'
  )
}
