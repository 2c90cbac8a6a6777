/**
 * Reads one OpenAPI (3.0, 3.1) or Swagger 2.0 document from the site's files, JSON or YAML, and
 * dereferences every `$ref` (inside the file and across files) with json-schema-ref-parser. References
 * resolve only against the in-memory file map: the built-in file and HTTP resolvers are off, so a
 * spec never reads the disk or the network. Circular schemas stay circular objects; renderers stop
 * at a schema they are already inside. A broken spec gives diagnostics, never a thrown error.
 */
import { $RefParser } from '@apidevtools/json-schema-ref-parser'
import { isMap, isSeq, LineCounter, parseDocument, parse as parseYaml, YAMLParseError } from 'yaml'
import type { Diagnostic } from '../diagnostics.js'
import { decodeUtf8, type SourceFiles } from '../files.js'

/** A dereferenced document: plain objects, possibly circular. */
export type SpecDocument = Record<string, unknown>

export interface LoadedSpec {
  /** The site path the spec was read from. */
  file: string
  document: SpecDocument | undefined
  diagnostics: Diagnostic[]
}

/** Site files are addressed under this origin, which no resolver but ours reads. */
const SITE_ORIGIN = 'http://site.invalid/'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Parses a spec file's text as JSON or YAML (YAML is a superset, but JSON.parse is much faster). */
export function parseSpecText(text: string, file: string): unknown {
  if (/\.json$/i.test(file) || text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text)
    } catch {
      // Fall through: YAML gives the better message, with a line.
    }
  }
  return parseYaml(text, { maxAliasCount: 1000 })
}

function sitePathOf(url: string): string | undefined {
  if (!url.startsWith(SITE_ORIGIN)) return undefined
  return decodeURIComponent(url.slice(SITE_ORIGIN.length).replace(/[?#].*$/, ''))
}

/**
 * Loaded specs by file map, each with the bytes of every site file it read: `docsctl dev` changes its
 * map in place, so an entry counts only while all those files are unchanged.
 */
const cache = new WeakMap<
  SourceFiles,
  Map<string, { loading: Promise<LoadedSpec>; read: Map<string, Uint8Array | undefined> }>
>()

/** Loads `file` once per state of its files. */
export function loadSpec(files: SourceFiles, file: string): Promise<LoadedSpec> {
  const bytes = files.get(file)
  if (!bytes) {
    return Promise.resolve({
      file,
      document: undefined,
      diagnostics: [
        {
          severity: 'error',
          file,
          rule: 'openapi-missing',
          message: `OpenAPI document "${file}" is not in the site`,
        },
      ],
    })
  }
  let loaded = cache.get(files)
  if (!loaded) {
    loaded = new Map()
    cache.set(files, loaded)
  }
  const known = loaded.get(file)
  if (known && [...known.read].every(([path, seen]) => files.get(path) === seen)) return known.loading
  const read = new Map<string, Uint8Array | undefined>([[file, bytes]])
  const loading = readSpec(files, file, bytes, read)
  loaded.set(file, { loading, read })
  return loading
}

async function readSpec(
  files: SourceFiles,
  file: string,
  bytes: Uint8Array,
  read: Map<string, Uint8Array | undefined>,
): Promise<LoadedSpec> {
  const diagnostics: Diagnostic[] = []
  const text = decodeUtf8(bytes)
  if (text === undefined) {
    diagnostics.push({
      severity: 'error',
      file,
      rule: 'openapi-invalid',
      message: 'Unexpected bytes, expected UTF-8 text',
    })
    return { file, document: undefined, diagnostics }
  }
  let root: unknown
  try {
    root = parseSpecText(text, file)
  } catch (error) {
    const place = error instanceof YAMLParseError ? error.linePos?.[0] : undefined
    diagnostics.push({
      severity: 'error',
      file,
      ...(place ? { line: place.line, column: place.col } : {}),
      rule: 'openapi-invalid',
      message: `Unexpected text, expected a JSON or YAML OpenAPI document: ${firstLine(error)}`,
    })
    return { file, document: undefined, diagnostics }
  }
  if (
    !isRecord(root) ||
    (typeof root.openapi !== 'string' &&
      typeof root.swagger !== 'string' &&
      typeof root.asyncapi !== 'string')
  ) {
    diagnostics.push({
      severity: 'error',
      file,
      rule: 'openapi-invalid',
      message:
        'Unexpected document, expected an object with an `openapi` (3.x), `swagger` (2.0) or `asyncapi` version',
    })
    return { file, document: undefined, diagnostics }
  }
  if (
    typeof root.asyncapi !== 'string' &&
    !isRecord(root.paths) &&
    !isRecord(root.webhooks) &&
    !isRecord(root.components)
  ) {
    diagnostics.push({
      severity: 'warning',
      file,
      path: 'paths',
      rule: 'openapi-invalid',
      message: 'Unexpected document without `paths`, expected the operations under `paths`',
    })
  }
  const parser = new $RefParser()
  try {
    await parser.dereference(`${SITE_ORIGIN}${encodeURI(file)}`, root as never, {
      continueOnError: true,
      resolve: {
        file: false,
        http: false,
        external: true,
        site: {
          order: 1,
          canRead: (info: { url: string }) => sitePathOf(info.url) !== undefined,
          read: (info: { url: string }) => {
            const path = sitePathOf(info.url)
            const found = path === undefined ? undefined : files.get(path)
            if (path !== undefined) read.set(path, found)
            if (!found) throw new Error(`"${path ?? info.url}" is not a file of the site`)
            return Buffer.from(found.buffer, found.byteOffset, found.byteLength)
          },
        },
      } as never,
      dereference: { circular: true },
    })
  } catch (error) {
    const errors = (error as { errors?: unknown[] }).errors
    for (const problem of Array.isArray(errors) ? errors : [error])
      diagnostics.push(refDiagnostic(file, problem))
  }
  const document = isRecord(parser.schema) ? (parser.schema as SpecDocument) : (root as SpecDocument)
  return { file, document, diagnostics }
}

function refDiagnostic(file: string, problem: unknown): Diagnostic {
  const details = problem as { path?: unknown; source?: unknown; message?: unknown }
  const path = Array.isArray(details.path) ? jsonPath(details.path) : undefined
  const source = typeof details.source === 'string' ? sitePathOf(details.source) : undefined
  return {
    severity: 'error',
    file: source || file,
    ...(path ? { path } : {}),
    rule: 'openapi-ref',
    message: `Unresolved $ref: ${firstLine(problem).replace(SITE_ORIGIN, '')}`,
  }
}

/** `["paths", "/pets", "get"]` → `paths["/pets"].get`. */
export function jsonPath(segments: readonly unknown[]): string {
  let path = ''
  for (const segment of segments) {
    const key = String(segment)
    if (/^\d+$/.test(key)) path += `[${key}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) path += path ? `.${key}` : key
    else path += `[${JSON.stringify(key)}]`
  }
  return path
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error)).split(
    '\n',
  )[0] ?? ''

/** `paths["/pets"].get` → `["paths", "/pets", "get"]`: the inverse of `jsonPath`. */
function pathSegments(path: string): string[] {
  const segments: string[] = []
  const pattern = /\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]|\.?([A-Za-z_$][\w$-]*)/gy
  for (let match = pattern.exec(path); match; match = pattern.exec(path)) {
    segments.push(match[1] ? (JSON.parse(match[1]) as string) : (match[2] ?? match[3]!))
    if (pattern.lastIndex >= path.length) break
  }
  return segments
}

/**
 * The 1-based line and column of the value at `path` (as `jsonPath` writes it) in a spec's text,
 * JSON or YAML; as deep as the text goes when the rest of the path is not in it.
 */
export function locateSpecPath(text: string, path: string): { line: number; column: number } | undefined {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter })
  let node: unknown = document.contents
  let offset: number | undefined
  for (const segment of pathSegments(path)) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => String((item.key as { value?: unknown })?.value ?? item.key) === segment,
      )
      if (!pair) break
      offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? offset
      node = pair.value
    } else if (isSeq(node)) {
      const item: unknown = node.items[Number(segment)]
      if (item === undefined) break
      offset = (item as { range?: [number, number, number] }).range?.[0] ?? offset
      node = item
    } else break
  }
  if (offset === undefined) return undefined
  const { line, col } = lineCounter.linePos(offset)
  return { line, column: col }
}
