/**
 * `migrateSite`: rewrites a site written for the hosted platform into what this service reads, as
 * text edits that keep the author's formatting. It converts a legacy mint.json to docs.json, removes
 * the theming keys (`UNSUPPORTED_KEYS`), maps legacy shapes the way legacy.ts reads them, and fixes
 * keys that differ from a known one only in case, in docs.json and in page front matter. Anything it
 * is not sure of is left for `docsctl validate` to report.
 */

import { readFileSync } from 'node:fs'
import { applyEdits, type Edit, findNodeAtLocation, modify, parse, parseTree } from 'jsonc-parser'
import { fromPackageRoot } from '../assets.js'
import type { SourceFiles } from '../files.js'
import { CONFIG_FILE } from './index.js'
import type { JsonPath } from './json-source.js'
import { mapLegacyConfig } from './legacy.js'
import { docsValidator } from './schema.js'
import { translateSchemaErrors, UNSUPPORTED_KEYS, valueAt } from './schema-errors.js'

export interface MigratedFile {
  /** The file as written after the migration. */
  path: string
  /** The file it was read from, when renamed (mint.json → docs.json). */
  from?: string
  before: string
  after: string
  /** What changed, one line each, in the author's words. */
  notes: string[]
}

const decoder = new TextDecoder()
/** Edits indent as the file does: tabs, or the width of its first indented line. */
function formatOf(text: string) {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return {
    formattingOptions: {
      insertSpaces: !indent.startsWith('\t'),
      tabSize: indent.startsWith('\t') ? 1 : indent.length,
    },
  }
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export function migrateSite(files: SourceFiles): MigratedFile[] {
  const migrated: MigratedFile[] = []
  const config = migrateConfig(files)
  if (config) migrated.push(config)
  const keys = frontMatterKeys()
  for (const [path, bytes] of files) {
    if (!/\.mdx?$/.test(path)) continue
    const before = decoder.decode(bytes)
    const { text: after, notes } = fixFrontMatterCase(before, keys)
    if (after !== before) migrated.push({ path, before, after, notes })
  }
  return migrated
}

/**
 * docs.json as migrated (or mint.json converted to it, when there is no docs.json): the part of
 * `migrateSite` that `docsctl upgrade` runs on its own.
 */
export function migrateConfig(files: SourceFiles): MigratedFile | undefined {
  const notes: string[] = []
  const docs = files.get(CONFIG_FILE)
  const mint = files.get('mint.json')
  let before = ''
  let text: string
  let from: string | undefined
  if (docs) text = before = decoder.decode(docs)
  else if (mint) {
    before = decoder.decode(mint)
    const converted = convertMintJson(parse(before) as unknown)
    if (!converted) return undefined
    text = `${JSON.stringify(converted, null, 2)}\n`
    from = 'mint.json'
    notes.push('mint.json converted to docs.json')
  } else return undefined

  const FORMAT = formatOf(text)
  const apply = (edits: Edit[]) => {
    text = applyEdits(text, edits)
  }
  let data = parse(text) as unknown
  if (!isObject(data)) return undefined

  for (const key of UNSUPPORTED_KEYS) {
    if (!(key in data)) continue
    apply(modify(text, [key], undefined, FORMAT))
    notes.push(`removed "${key}": sites use the one built-in theme`)
  }

  // Legacy shapes, mapped as the lenient loader reads them.
  data = parse(text) as unknown
  const legacy = mapLegacyConfig(data)
  const mapped = legacy.config as Json
  if (isObject(data) && legacy.changes.length > 0) {
    if ('anchors' in data) {
      apply(modify(text, ['anchors'], undefined, FORMAT))
      notes.push('moved top-level "anchors" to navigation.global.anchors')
    }
    const global = valueAt(mapped, ['navigation', 'global'])
    if (isObject(global)) {
      for (const list of ['anchors', 'links'] as const) {
        if (global[list] === undefined) continue
        if (JSON.stringify(valueAt(data, ['navigation', 'global', list])) === JSON.stringify(global[list]))
          continue
        apply(modify(text, ['navigation', 'global', list], global[list], FORMAT))
        notes.push(`navigation.global.${list}: links written as { "label", "href" }`)
      }
    }
  }

  // Keys that differ from a known one only in case: certain enough to rename.
  for (let round = 0; round < 5; round++) {
    data = parse(text) as unknown
    const validate = docsValidator()
    if (validate(data)) break
    const renames = translateSchemaErrors(validate.errors ?? [], data).filter(
      (problem) =>
        problem.rule === 'unknown-key' &&
        problem.suggestion !== undefined &&
        problem.suggestion.toLowerCase() === String(problem.path.at(-1)).toLowerCase(),
    )
    const edits = renames.flatMap((problem) => renameKeyEdit(text, problem.path, problem.suggestion!))
    if (edits.length === 0) break
    for (const problem of renames)
      notes.push(`renamed "${String(problem.path.at(-1))}" to "${problem.suggestion}"`)
    apply(edits)
  }

  if (text === before && !from) return undefined
  return { path: CONFIG_FILE, ...(from !== undefined && { from }), before, after: text, notes }
}

/** An edit replacing the key (not the value) at `path`, keeping everything around it. */
function renameKeyEdit(text: string, path: JsonPath, to: string): Edit[] {
  const tree = parseTree(text)
  const value = tree ? findNodeAtLocation(tree, path) : undefined
  const key = value?.parent?.type === 'property' ? value.parent.children?.[0] : undefined
  if (!key) return [] // behind a $ref: in another file, left for validate to report
  return [{ offset: key.offset, length: key.length, content: JSON.stringify(to) }]
}

function frontMatterKeys(): string[] {
  const schema = JSON.parse(readFileSync(fromPackageRoot('schemas', 'frontmatter.schema.json'), 'utf8')) as {
    properties: Json
  }
  return Object.keys(schema.properties)
}

/** Top-level front matter keys written with the wrong case (`sideBarTitle`) get the known spelling. */
function fixFrontMatterCase(source: string, known: readonly string[]): { text: string; notes: string[] } {
  const notes: string[] = []
  const block = /^(?:\uFEFF)?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(source)
  if (!block) return { text: source, notes }
  const byLower = new Map(known.map((key) => [key.toLowerCase(), key]))
  const start = block[0].indexOf(block[1]!)
  const fixed = block[1]!.replace(/^([A-Za-z][\w-]*)(?=[ \t]*:)/gm, (key: string) => {
    const wanted = byLower.get(key.toLowerCase())
    if (!wanted || wanted === key || known.includes(key)) return key
    notes.push(`front matter "${key}" renamed to "${wanted}"`)
    return wanted
  })
  return { text: source.slice(0, start) + fixed + source.slice(start + block[1]!.length), notes }
}

/**
 * The legacy mint.json shape in docs.json's: navigation groups (split into tabs by their `url`
 * prefix), top-bar links and button, anchors, footer socials and API settings. Theming keys are left
 * out; keys with no counterpart stay as they are, for `docsctl validate` to name.
 */
export function convertMintJson(mint: unknown): Json | undefined {
  if (!isObject(mint)) return undefined
  const {
    $schema: _schema,
    navigation,
    tabs,
    anchors,
    topbarLinks,
    topbarCtaButton,
    footerSocials,
    api,
    openapi,
    modeToggle,
    ...rest
  } = mint
  const docs: Json = {}
  for (const [key, value] of Object.entries(rest)) {
    if ((UNSUPPORTED_KEYS as readonly string[]).includes(key)) continue
    if (['backgroundImage', 'layout', 'sidebar', 'topbar', 'rounded', 'font', 'codeBlock'].includes(key))
      continue
    docs[key] = value
  }
  const groups = Array.isArray(navigation) ? navigation : []
  const tabList = Array.isArray(tabs) ? tabs.filter(isObject) : []
  const underTab = (group: unknown, prefix: string) =>
    isObject(group) &&
    Array.isArray(group.pages) &&
    group.pages.length > 0 &&
    group.pages.every((page) => typeof page === 'string' && page.replace(/^\//, '').startsWith(`${prefix}/`))
  if (tabList.length > 0) {
    const claimed = new Set<unknown>()
    const tabEntries = tabList.map((tab) => {
      const prefix = String(tab.url ?? '').replace(/^\/|\/$/g, '')
      const own = groups.filter((group) => !claimed.has(group) && underTab(group, prefix))
      for (const group of own) claimed.add(group)
      return { tab: tab.name, ...(own.length > 0 ? { groups: own } : { href: tab.url }) }
    })
    const first = groups.filter((group) => !claimed.has(group))
    docs.navigation = {
      tabs: [...(first.length > 0 ? [{ tab: 'Documentation', groups: first }] : []), ...tabEntries],
    }
  } else docs.navigation = { groups }
  if (Array.isArray(anchors)) {
    ;(docs.navigation as Json).global = {
      anchors: anchors
        .filter(isObject)
        .map(({ name, url, ...link }) => ({ ...link, anchor: name, href: url })),
    }
  }
  const navbar: Json = {}
  if (Array.isArray(topbarLinks))
    navbar.links = topbarLinks
      .filter(isObject)
      .map(({ name, url, ...link }) => ({ ...link, label: name, href: url }))
  if (isObject(topbarCtaButton)) {
    const { name, url, type } = topbarCtaButton
    navbar.primary =
      type === 'github' ? { type: 'github', href: url } : { type: 'button', label: name, href: url }
  }
  if (Object.keys(navbar).length > 0) docs.navbar = navbar
  if (isObject(footerSocials)) docs.footer = { socials: footerSocials }
  else if (Array.isArray(footerSocials))
    docs.footer = {
      socials: Object.fromEntries(footerSocials.filter(isObject).map((social) => [social.type, social.url])),
    }
  if (isObject(modeToggle) && typeof modeToggle.default === 'string')
    docs.appearance = { default: modeToggle.default, ...(modeToggle.isHidden === true && { strict: true }) }
  const apiSettings: Json = {}
  if (openapi !== undefined) apiSettings.openapi = openapi
  if (isObject(api)) {
    const { baseUrl, auth, playground } = api
    if (baseUrl !== undefined || auth !== undefined) {
      apiSettings.mdx = { ...(isObject(auth) && { auth }), ...(baseUrl !== undefined && { server: baseUrl }) }
    }
    if (isObject(playground) && typeof playground.mode === 'string') {
      apiSettings.playground = {
        display:
          playground.mode === 'show' ? 'interactive' : playground.mode === 'hide' ? 'none' : playground.mode,
      }
    }
  }
  if (Object.keys(apiSettings).length > 0) docs.api = apiSettings
  return docs
}
