/**
 * Settings of the hosted platform's docs.json that this service reads without acting on them. A site
 * written for the platform validates here: each one is a warning that names what is ignored, never an
 * "unknown key" with a far-fetched suggestion. Keys we refuse on purpose are `UNSUPPORTED_KEYS`.
 */
import type { JsonPath } from './json-source.js'

interface IgnoredKey {
  /** Dotted path; `*` is any one key or index, `**` any number of them. */
  path: string
  /** What the setting does on the hosted platform. */
  does: string
}

export const IGNORED_PLATFORM_KEYS: readonly IgnoredKey[] = [
  { path: 'feedback.suggestEdit', does: 'a link to edit the page in its repository' },
  { path: 'feedback.raiseIssue', does: 'a link to open an issue about the page' },
  { path: 'api.playground.proxy', does: 'the playground proxy' },
  { path: 'api.spec', does: 'a download of the OpenAPI document' },
  { path: '**.boost', does: 'search ranking weight' },
  { path: 'search.*', does: 'search settings other than "prompt" and "synonyms"' },
  { path: 'metadata.*', does: 'page metadata such as the last-modified timestamp' },
]

/** Preset `contextual.options` of the platform that have no counterpart here. */
export const IGNORED_CONTEXTUAL_OPTIONS: Readonly<Record<string, string>> = {
  'download-spec': 'a download of the OpenAPI document',
}

function matches(pattern: readonly string[], path: readonly (string | number)[]): boolean {
  const [head, ...rest] = pattern
  if (head === undefined) return path.length === 0
  if (head === '**') return matches(rest, path) || (path.length > 0 && matches(pattern, path.slice(1)))
  if (path.length === 0) return false
  return (head === '*' || head === String(path[0])) && matches(rest, path.slice(1))
}

/** What an ignored platform key at `path` does there, if it is one. */
export function ignoredPlatformKey(path: JsonPath): string | undefined {
  return IGNORED_PLATFORM_KEYS.find((key) => matches(key.path.split('.'), path))?.does
}
