/**
 * Older shapes (mint.json era) mapped onto the current format: `name`/`url` on global links and a
 * top-level `anchors` list. Strict mode reports each one with what to write instead; lenient mode
 * applies the mapping below and warns. `anchor` as a global link's label is the format's own and is
 * read silently. A migration command can write `mapLegacyConfig(...).config` out as a converted docs.json.
 */
import type { JsonPath } from './json-source.js'

export interface LegacyChange {
  /** Where the construct is in the source document. */
  path: JsonPath
  /** Report at the key (`"anchors": …`) or at the value (a nested group object). */
  at: 'key' | 'value'
  rule: string
  /** Strict-mode wording: what is not supported and what to write instead. */
  unsupported: string
  /** Lenient-mode wording: what the mapping did. */
  mapped: string
}

/** A part of the converted config that came from a different place in the source. */
export interface LegacyOrigin {
  converted: JsonPath
  source: JsonPath
}

export interface LegacyMapping {
  config: unknown
  changes: LegacyChange[]
  origins: LegacyOrigin[]
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export function mapLegacyConfig(raw: unknown): LegacyMapping {
  const changes: LegacyChange[] = []
  const origins: LegacyOrigin[] = []
  if (!isObject(raw)) return { config: raw, changes, origins }
  const config: Json = { ...raw }

  const navigation = isObject(config.navigation) ? { ...config.navigation } : undefined
  if (navigation) {
    config.navigation = navigation
    mapGlobalLinks(navigation, changes)
  }

  // The older top-level `anchors: [{ name, url, icon }]` are links shown across all tabs.
  if (Array.isArray(config.anchors)) {
    const anchors = config.anchors
    changes.push({
      path: ['anchors'],
      at: 'key',
      rule: 'unsupported-navigation',
      unsupported:
        'top-level "anchors" is not supported here; use navigation.global.anchors with { "label", "href" }',
      mapped: 'top-level "anchors" mapped onto navigation.global.anchors',
    })
    delete config.anchors
    const target = isObject(config.navigation) ? config.navigation : undefined
    if (target) {
      const global = isObject(target.global) ? { ...target.global } : {}
      const existing = Array.isArray(global.anchors) ? [...global.anchors] : []
      anchors.forEach((anchor, index) => {
        origins.push({
          converted: ['navigation', 'global', 'anchors', existing.length],
          source: ['anchors', index],
        })
        existing.push(isObject(anchor) ? renameLinkKeys(anchor) : anchor)
      })
      global.anchors = existing
      target.global = global
    }
  }

  return { config, changes, origins }
}

/** `{ anchor | name, href | url }` → `{ label, href }`, the shape of our links. */
function renameLinkKeys(link: Json): Json {
  const { anchor, name, url, ...rest } = link
  const label = rest.label ?? anchor ?? name
  const href = rest.href ?? url
  return { ...rest, ...(label !== undefined && { label }), ...(href !== undefined && { href }) }
}

function mapGlobalLinks(navigation: Json, changes: LegacyChange[]): void {
  if (!isObject(navigation.global)) return
  const global = { ...navigation.global }
  for (const list of ['anchors', 'links'] as const) {
    const links = global[list]
    if (!Array.isArray(links)) continue
    global[list] = links.map((link, index) => {
      if (!isObject(link)) return link
      for (const [key, ours] of [
        ['name', 'label'],
        ['url', 'href'],
      ] as const) {
        if (link[key] !== undefined && link[ours] === undefined) {
          changes.push({
            path: ['navigation', 'global', list, index, key],
            at: 'key',
            rule: 'unsupported-key',
            unsupported: `"${key}" is not supported here; rename it to "${ours}"`,
            mapped: `"${key}" read as "${ours}"`,
          })
        }
      }
      return renameLinkKeys(link)
    })
  }
  navigation.global = global
}

/** Where a path of the converted config came from in the source document. */
export function sourcePathOf(path: JsonPath, origins: readonly LegacyOrigin[]): JsonPath {
  let best: LegacyOrigin | undefined
  for (const origin of origins) {
    const isPrefix =
      origin.converted.length <= path.length && origin.converted.every((segment, i) => path[i] === segment)
    if (isPrefix && (!best || origin.converted.length > best.converted.length)) best = origin
  }
  return best ? [...best.source, ...path.slice(best.converted.length)] : path
}
