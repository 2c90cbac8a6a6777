/**
 * Resolves `{ "$ref": "relative/file.json" }` wherever it sits (any object or array value, as the
 * format's users split their docs.json): the referenced file's JSON, of any type, replaces the entry.
 * Paths are relative to the referring file, never leave the docs root, and cycles are reported. The
 * result remembers which file each part came from, so diagnostics point into the right file.
 */
import { posix } from 'node:path'
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import {
  formatJsonPath,
  type JsonPath,
  type JsonSource,
  locate,
  type Position,
  readJsonSource,
} from './json-source.js'
import type { ValidationMode } from './types.js'

interface Mount {
  /** Where the file's content sits in the resolved document. */
  path: JsonPath
  source: JsonSource
}

export interface Located extends Position {
  file: string
}

/** The resolved docs.json: one value assembled from several files, and where each part came from. */
export class ResolvedDocument {
  constructor(
    readonly value: unknown,
    private readonly mounts: Mount[],
  ) {}

  /** Files that made up the document, docs.json first. */
  get files(): string[] {
    return [...new Set(this.mounts.map((mount) => mount.source.file))]
  }

  locate(path: JsonPath, at: 'value' | 'key' = 'value'): Located {
    let best: Mount | undefined
    for (const mount of this.mounts) {
      const isPrefix =
        mount.path.length <= path.length && mount.path.every((segment, i) => path[i] === segment)
      if (isPrefix && (!best || mount.path.length > best.path.length)) best = mount
    }
    if (!best) return { file: 'docs.json', line: 1, column: 1 }
    return { file: best.source.file, ...locate(best.source, path.slice(best.path.length), at) }
  }
}

export function resolveRefs(
  files: SourceFiles,
  root: JsonSource,
  mode: ValidationMode,
  diagnostics: Diagnostic[],
  /** Paths already reported; schema errors under them are not repeated. */
  reported: Set<string>,
): ResolvedDocument {
  const mounts: Mount[] = [{ path: [], source: root }]
  const parsed = new Map<string, JsonSource | undefined>([[root.file, root]])

  const report = (
    source: JsonSource,
    sourcePath: JsonPath,
    path: JsonPath,
    rule: string,
    message: string,
    value: unknown,
  ): unknown => {
    // Lenient: a broken `$ref` outside navigation drops that value; the site renders without it.
    const dropped = mode === 'lenient' && path[0] !== 'navigation' && path.length > 0
    diagnostics.push({
      severity: dropped ? 'warning' : 'error',
      file: source.file,
      ...locate(source, sourcePath),
      path: formatJsonPath(path),
      rule,
      message: dropped ? `${message}; ignored` : message,
    })
    reported.add(formatJsonPath(path))
    return dropped ? undefined : value
  }

  const walk = (
    value: unknown,
    path: JsonPath,
    source: JsonSource,
    sourcePath: JsonPath,
    chain: string[],
  ): unknown => {
    if (Array.isArray(value)) {
      return value.map((item, index) => walk(item, [...path, index], source, [...sourcePath, index], chain))
    }
    if (value === null || typeof value !== 'object') return value
    const record = value as Record<string, unknown>
    if (!Object.hasOwn(record, '$ref')) {
      const copy: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(record)) {
        const resolved = walk(child, [...path, key], source, [...sourcePath, key], chain)
        if (resolved !== undefined) copy[key] = resolved
      }
      return copy
    }
    const ref = record.$ref
    const refPath = [...sourcePath, '$ref']
    if (typeof ref !== 'string' || ref === '') {
      return report(
        source,
        refPath,
        path,
        'invalid-ref',
        `expected "$ref" to be a relative file path, found ${describe(ref)}`,
        value,
      )
    }
    const siblings = Object.keys(record).filter((key) => key !== '$ref')
    if (mode === 'strict' && siblings.length > 0) {
      return report(
        source,
        [...sourcePath, siblings[0] ?? ''],
        path,
        'ref-siblings',
        `an entry with "$ref" holds nothing else; move ${siblings.map((key) => `"${key}"`).join(', ')} into ${ref}`,
        value,
      )
    }
    const target = ref.startsWith('/')
      ? posix.normalize(ref.slice(1))
      : posix.normalize(posix.join(posix.dirname(source.file), ref))
    if (target.startsWith('../') || target === '..' || posix.isAbsolute(target) || ref.includes('\\')) {
      return report(
        source,
        refPath,
        path,
        'ref-outside-root',
        `"$ref" ${JSON.stringify(ref)} points outside the docs root`,
        value,
      )
    }
    if (chain.includes(target)) {
      const cycle = [...chain.slice(chain.indexOf(target)), target].join(' → ')
      return report(
        source,
        refPath,
        path,
        'ref-cycle',
        `"$ref" ${JSON.stringify(ref)} makes a cycle: ${cycle}`,
        value,
      )
    }
    const bytes = files.get(target)
    if (!bytes) {
      return report(
        source,
        refPath,
        path,
        'ref-not-found',
        `"$ref" ${JSON.stringify(ref)}: file ${target} not found; create it or correct the path`,
        value,
      )
    }
    if (!parsed.has(target)) {
      const read = readJsonSource(target, bytes)
      diagnostics.push(...read.diagnostics)
      parsed.set(target, read.source)
    }
    const referenced = parsed.get(target)
    if (!referenced) {
      reported.add(formatJsonPath(path))
      return value
    }
    const isObjectValue =
      referenced.value !== null && typeof referenced.value === 'object' && !Array.isArray(referenced.value)
    if (siblings.length > 0 && !isObjectValue) {
      return report(
        source,
        refPath,
        path,
        'invalid-ref',
        `"$ref" ${JSON.stringify(ref)} holds ${describe(referenced.value)}, so ${siblings.map((key) => `"${key}"`).join(', ')} beside it cannot apply; move them into ${ref} or remove them`,
        value,
      )
    }
    mounts.push({ path, source: referenced })
    const resolved = walk(referenced.value, path, referenced, [], [...chain, target])
    if (!isObjectValue) return resolved
    // Lenient only: keys beside "$ref" override the file's (the hosted platform's behaviour).
    for (const key of siblings)
      (resolved as Record<string, unknown>)[key] = walk(
        record[key],
        [...path, key],
        source,
        [...sourcePath, key],
        chain,
      )
    return resolved
  }

  const value = walk(root.value, [], root, [], [root.file])
  return new ResolvedDocument(value, mounts)
}

/** How a found value reads in a message: `a number (42)`, `an object`, `"text"`. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)
    case 'number':
      return `the number ${value}`
    case 'boolean':
      return `${value}`
    case 'object':
      return 'an object'
    default:
      return typeof value
  }
}
