/**
 * Anchor ids as the hosted platform writes them, so `#anchor` links authored for it land here too.
 * Headings: lower case, punctuation dropped, but `&`, `/` and emoji kept, and each space its own "-"
 * ("3. VAD & Turn" → `3-vad-&-turn`). API fields: `<kind>-<name>` with every run of other characters
 * one "-" (`--max-session-duration` → `param-max-session-duration`). Ids stay unique on the page as
 * github-slugger keeps them: a repeat gets `-1`, `-2`, …
 */
import type { Element } from 'hast'

// github-slugger's rule, minus `&`, `/` and emoji: what is neither a letter, mark, number, connector,
// space, "-", "&" nor "/" (nor an emoji) goes.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: a joiner or variation selector is kept alone, as the platform keeps it
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\p{Extended_Pictographic}\u200d\ufe0f \-&/]/gu

export function headingSlug(text: string): string {
  return text.toLowerCase().trim().replace(DROPPED, '').replace(/ /g, '-')
}

export function fieldSlug(kind: string, name: string): string {
  const words = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return words ? `${kind}-${words}` : kind
}

/** `base`, or `base-1`, `base-2`, … when the page already has it; `taken` counts per base. */
export function uniqueId(base: string, taken: Map<string, number>): string {
  const key = `id:${base}`
  const seen = taken.get(key)
  taken.set(key, (seen ?? -1) + 1)
  return seen === undefined ? base : `${base}-${seen + 1}`
}

/** An empty element carrying an id that links written for earlier builds still reach. */
export function anchorAlias(id: string): Element {
  return { type: 'element', tagName: 'span', properties: { id, className: ['d-anchor-alias'] }, children: [] }
}
