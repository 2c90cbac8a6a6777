/**
 * The site's Tailwind stylesheet: the class names authors wrote on HTML elements (and their code
 * components returned), compiled at build time with Tailwind CSS v4's `compile()`. Only the classes
 * a site uses become rules, Tailwind's preflight is left out so the theme's styles stand, and `dark:`
 * follows the shell's colour mode (`data-theme="dark"` on `<html>`). Utilities are `!important`: an
 * author's class on their own element wins over the theme's prose rules (a Frame's `img
 * {display:block}` must not undo `dark:hidden`), as it does where these pages were first written.
 *
 * Class names are the author's, and so are arbitrary variants: `[:root:has(&)_.d-header]:hidden`
 * compiles to a rule for the shell's header. The compiled stylesheet is therefore scoped to the page's
 * content like a root stylesheet (compiler/theme/scope-stylesheet.ts): every rule matches only inside
 * `.d-prose`, and Tailwind's theme variables are set on the content instead of `:root`.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { scopeRootStylesheet } from './scope-stylesheet.js'

const INPUT = [
  '@import "tailwindcss/theme.css" layer(theme);',
  '@import "tailwindcss/utilities.css" important;',
  '@custom-variant dark (&:where([data-theme=dark], [data-theme=dark] *));',
].join('\n')

export interface TailwindStylesheet {
  /** `_assets/tailwind.<hash>.css`. */
  path: string
  bytes: Uint8Array
  /** The candidates that became a rule: a page links the stylesheet when it uses one of them. */
  classes: ReadonlySet<string>
}

/** Compile `candidates`; `undefined` when none of them is a Tailwind class. */
export async function compileTailwind(candidates: Iterable<string>): Promise<TailwindStylesheet | undefined> {
  const wanted = [...new Set(candidates)].sort()
  if (wanted.length === 0) return undefined
  // Loaded only by builds that have class names to compile.
  const { compile } = await import('tailwindcss')
  const require = createRequire(import.meta.url)
  const compiler = await compile(INPUT, {
    base: '/',
    loadStylesheet: async (id, base) => {
      // Only Tailwind's own two stylesheets: the input above is ours, never an author's.
      if (id !== 'tailwindcss/theme.css' && id !== 'tailwindcss/utilities.css')
        throw new Error(`Unexpected stylesheet import "${id}"`)
      const path = require.resolve(id)
      return { path, base, content: readFileSync(path, 'utf8') }
    },
  })
  const css = scopedToContent(compiler.build(wanted))
  const classes = classesOf(css, wanted)
  if (classes.size === 0) return undefined
  const bytes = new TextEncoder().encode(css)
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12)
  return { path: `_assets/tailwind.${hash}.css`, bytes, classes }
}

/** `css` with every rule inside the page's content; Tailwind's licence comment kept at its head. */
function scopedToContent(css: string): string {
  const licence = /^\/\*![\s\S]*?\*\/\n?/.exec(css)?.[0] ?? ''
  // The theme's variables, on `:root, :host`, go to the content: `:host` names nothing in a page.
  const rules = css.slice(licence.length).replaceAll(':root, :host {', ':root {')
  return `${licence}${scopeRootStylesheet(rules)}`
}

/** The candidates whose escaped class selector appears in the compiled CSS. */
function classesOf(css: string, candidates: readonly string[]): Set<string> {
  const selectors = new Set<string>()
  for (const match of css.matchAll(/\.((?:\\.|[\w-])+)/g)) selectors.add(match[1]!.replace(/\\(.)/g, '$1'))
  return new Set(candidates.filter((candidate) => selectors.has(candidate)))
}

/**
 * Every stylesheet of the site (`style.css`, `styles/route.css`, …), as the hosted platform links them:
 * by every page, after the theme's, root files first, then by path. Each is scoped to the content
 * (scope-stylesheet.ts); an `@import` between them is redundant, since all are linked.
 */
export function siteStylesheets(paths: Iterable<string>): string[] {
  const depth = (path: string) => path.split('/').length
  return [...paths]
    .filter((path) => /\.css$/i.test(path))
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
}
