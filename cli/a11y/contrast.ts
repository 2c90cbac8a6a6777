/**
 * Colour contrast of the site's colours, as WCAG 2 measures it. docs.json has no colours in this
 * format (`colors` is one of the theming keys sites do not set), so the colours are the theme's: the
 * custom properties of site.css, light and dark.
 */
import type { Diagnostic } from '../../compiler/diagnostics.js'

/** WCAG AA for body text. */
export const MIN_TEXT_CONTRAST = 4.5

/** `#rgb` or `#rrggbb` → [r, g, b] in 0…255; undefined for anything else. */
function parseHex(colour: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())?.[1]
  if (!hex) return undefined
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as [number, number, number]
}

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (value: number) => {
    const s = value / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** The contrast ratio of two `#hex` colours, 1…21; undefined when either is not a hex colour. */
export function contrastRatio(foreground: string, background: string): number | undefined {
  const fg = parseHex(foreground)
  const bg = parseHex(background)
  if (!fg || !bg) return undefined
  const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** Text colours the theme draws on a background, by custom property name. */
const TEXT_PAIRS: readonly { foreground: string; background: string; use: string }[] = [
  { foreground: '--d-fg', background: '--d-bg', use: 'body text' },
  { foreground: '--d-fg-soft', background: '--d-bg', use: 'secondary text' },
  { foreground: '--d-fg-muted', background: '--d-bg', use: 'muted text' },
  { foreground: '--d-fg-muted', background: '--d-bg-soft', use: 'muted text on panels' },
  { foreground: '--d-accent', background: '--d-bg', use: 'links' },
  { foreground: '--d-accent', background: '--d-accent-soft', use: 'the current sidebar item' },
  { foreground: '--d-accent-fg', background: '--d-accent', use: 'buttons' },
  { foreground: '--d-fg', background: '--d-code-bg', use: 'code' },
]

export interface ContrastResult {
  scheme: 'light' | 'dark'
  use: string
  foreground: { name: string; value: string }
  background: { name: string; value: string }
  ratio: number
  line: number
}

/** The colour declarations of a stylesheet's first `selector {` block: name → value and line. */
function declarations(css: string, selector: string): Map<string, { value: string; line: number }> {
  const found = new Map<string, { value: string; line: number }>()
  const start = css.indexOf(`${selector} {`)
  if (start === -1) return found
  const end = css.indexOf('}', start)
  let line = css.slice(0, start).split('\n').length
  for (const text of css.slice(start, end).split('\n')) {
    const declaration = /^\s*(--[\w-]+)\s*:\s*(#[0-9a-f]{3,6})\s*;/i.exec(text)
    if (declaration) found.set(declaration[1]!, { value: declaration[2]!, line })
    line++
  }
  return found
}

/** Every text pair of the theme's light and dark colours, with its ratio. */
export function themeContrast(css: string): ContrastResult[] {
  const results: ContrastResult[] = []
  const light = declarations(css, ':root')
  const dark = new Map([...light, ...declarations(css, '[data-theme="dark"]')])
  for (const [scheme, colours] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    for (const pair of TEXT_PAIRS) {
      const foreground = colours.get(pair.foreground)
      const background = colours.get(pair.background)
      const ratio = foreground && background ? contrastRatio(foreground.value, background.value) : undefined
      if (!foreground || !background || ratio === undefined) continue
      results.push({
        scheme,
        use: pair.use,
        foreground: { name: pair.foreground, value: foreground.value },
        background: { name: pair.background, value: background.value },
        // Rounded down: a pair at 4.496:1 fails AA and must not print as 4.5:1.
        ratio: Math.floor(ratio * 100) / 100,
        line: foreground.line,
      })
    }
  }
  return results
}

/** An error for each pair below `MIN_TEXT_CONTRAST`, at the foreground's declaration in `file`. */
export function contrastProblems(file: string, results: readonly ContrastResult[]): Diagnostic[] {
  return results
    .filter((result) => result.ratio < MIN_TEXT_CONTRAST)
    .map((result) => ({
      severity: 'error',
      file,
      line: result.line,
      rule: 'contrast',
      message: `${result.use} (${result.scheme}): ${result.foreground.name} ${result.foreground.value} on ${result.background.name} ${result.background.value} is ${result.ratio}:1, below ${MIN_TEXT_CONTRAST}:1`,
    }))
}
