/**
 * A faster `toMarkdown` for the `.md` export, with the same output. mdast-util-to-markdown escapes each
 * text value by running every "unsafe" pattern over it (about sixty with GFM, math, frontmatter and
 * MDX), though a pattern can only match where its character occurs, and most values hold few of those
 * characters. Here each value is escaped with only the patterns whose character it holds (with the
 * characters around it): the others could not have matched, so the result is the same, for a fraction
 * of the regular expressions run.
 */

import type { Nodes } from 'mdast'
import {
  defaultHandlers,
  type Handle,
  type Options,
  type State,
  toMarkdown,
  type Unsafe,
} from 'mdast-util-to-markdown'

/** `toMarkdown(tree, options)`, escaping each value with the patterns that can match it. */
export function toMarkdownNarrowed(tree: Nodes, options: Options): string {
  return toMarkdown(tree, { ...options, handlers: { ...options.handlers, root: narrowingRoot } })
}

// The root handler runs first, with the state configured: the place to wrap its `safe`.
const narrowingRoot: Handle = (node, parent, state, info) => {
  narrowUnsafe(state)
  return defaultHandlers.root(node, parent, state, info)
}

const narrowed = new WeakSet<State>()

function narrowUnsafe(state: State): void {
  if (narrowed.has(state)) return
  narrowed.add(state)
  const safe = state.safe
  const all = state.unsafe
  const presence = new CharacterPresence(all.map((pattern) => pattern.character))
  // Pattern lists by which characters a value holds: few distinct ones on a page.
  const byPresence = new Map<string, Unsafe[]>()
  state.safe = function narrowedSafe(this: State, value, config) {
    // Patterns added after the first value (none of the extensions do) are run as before.
    if (this.unsafe !== all) return safe.call(this, value, config)
    const parts = [config.before ?? '', value ?? '', config.after ?? '']
    const key = presence.of(parts)
    let patterns = byPresence.get(key)
    if (!patterns) {
      const subject = parts.join('')
      patterns = all.filter((pattern) => subject.includes(pattern.character))
      byPresence.set(key, patterns)
    }
    this.unsafe = patterns
    try {
      return safe.call(this, value, config)
    } finally {
      this.unsafe = all
    }
  }
}

/** Which of a set of characters a string holds, as a key: one pass over the string. */
class CharacterPresence {
  /** Index of each ASCII character of the set by its code, -1 for the others. */
  readonly #ascii = new Int16Array(128).fill(-1)
  /** Characters of the set that are not one ASCII character: looked for one by one. */
  readonly #others: string[] = []
  readonly #seen: Uint8Array

  constructor(characters: readonly string[]) {
    const distinct = [...new Set(characters)]
    distinct.forEach((character, index) => {
      const code = character.charCodeAt(0)
      if (character.length === 1 && code < 128) this.#ascii[code] = index
      else this.#others.push(character)
    })
    this.#seen = new Uint8Array(distinct.length)
  }

  /**
   * A string naming the characters of the set that the parts, put together, hold; equal keys, equal
   * sets. The parts are read one by one rather than joined, which would copy them.
   */
  of(parts: readonly string[]): string {
    const seen = this.#seen
    seen.fill(0)
    for (const text of parts) {
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index)
        if (code < 128) {
          const found = this.#ascii[code]!
          if (found !== -1) seen[found] = 1
        }
      }
    }
    let key = ''
    for (let index = 0; index < seen.length; index++) if (seen[index] === 1) key += `${index},`
    if (this.#others.length > 0) {
      const text = parts.join('')
      for (const character of this.#others) key += text.includes(character) ? '1' : '0'
    }
    return key
  }
}
