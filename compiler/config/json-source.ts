/**
 * Reads one JSON config file keeping source positions, so every later diagnostic can name a line and
 * a column. Comments and trailing commas are errors here: docs.json is plain JSON.
 */
import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser'
import type { Diagnostic } from '../diagnostics.js'

/** A JSON path as segments: `['navigation', 'tabs', 1]`. */
export type JsonPath = (string | number)[]

/** Larger than any real docs.json (the biggest known is ~50 kB); stops accidental uploads of data files. */
export const MAX_CONFIG_BYTES = 2 * 1024 * 1024
/** Deeper nesting than this is never real navigation, and would risk the parser's stack. */
export const MAX_JSON_DEPTH = 64

export interface JsonSource {
  file: string
  text: string
  root: Node
  value: unknown
  /** Offsets of line starts, for offset → line:column. */
  lineStarts: number[]
}

export interface Position {
  line: number
  column: number
}

const bomBytes = [0xef, 0xbb, 0xbf]

export function positionAt(source: Pick<JsonSource, 'lineStarts'>, offset: number): Position {
  const starts = source.lineStarts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if ((starts[mid] ?? 0) <= offset) low = mid
    else high = mid - 1
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 }
}

function computeLineStarts(text: string): number[] {
  const starts = [0]
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) === 10) starts.push(index + 1)
  }
  return starts
}

/** Offset where arrays/objects first nest deeper than the limit (-1 if never); never recursive. */
function tooDeepAt(text: string): number {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 92) index++
      else if (char === 34) inString = false
    } else if (char === 34) inString = true
    else if (char === 123 || char === 91) {
      depth++
      if (depth > MAX_JSON_DEPTH) return index
    } else if (char === 125 || char === 93) depth--
  }
  return -1
}

const parseErrorWording: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after the property name',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'expected the end of the file after the top-level value',
  InvalidCommentToken: 'comments are not allowed in JSON; remove the comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character in string',
  InvalidCharacter: 'invalid character in string (control characters must be escaped)',
}

/**
 * Parse `bytes` as the JSON file `file`. Returns the source (when it parsed) and diagnostics; parse
 * errors are reported all at once, each at its position.
 */
export function readJsonSource(
  file: string,
  bytes: Uint8Array,
): { source: JsonSource | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const fail = (rule: string, message: string, position?: Position) => {
    diagnostics.push({ severity: 'error', file, ...position, rule, message })
    return { source: undefined, diagnostics }
  }
  if (bytes.byteLength > MAX_CONFIG_BYTES) {
    const megabytes = (bytes.byteLength / (1024 * 1024)).toFixed(1)
    return fail('file-too-large', `file is ${megabytes} MB; a config file may be at most 2 MB`)
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const offset = firstInvalidUtf8(bytes)
    return fail(
      'invalid-encoding',
      `file is not valid UTF-8 (bad byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at byte ${offset}); save it as UTF-8`,
    )
  }
  // The decoder drops a BOM: positions then match what editors show.
  if (bomBytes.every((byte, index) => bytes[index] === byte)) {
    diagnostics.push({
      severity: 'warning',
      file,
      line: 1,
      column: 1,
      rule: 'byte-order-mark',
      message: 'file starts with a byte order mark; save it as UTF-8 without BOM',
    })
  }
  const lineStarts = computeLineStarts(text)
  if (text.trim() === '')
    return fail('empty-file', 'file is empty; expected a JSON object', { line: 1, column: 1 })
  const deepAt = tooDeepAt(text)
  if (deepAt >= 0) {
    return fail(
      'too-deep',
      `nested more than ${MAX_JSON_DEPTH} levels deep here; flatten the structure`,
      positionAt({ lineStarts }, deepAt),
    )
  }
  const start = text.search(/\S/)
  const opening = text[start]
  if (opening !== '{' && opening !== '[' && opening !== '/') {
    const found = text.slice(start).split('\n')[0]?.slice(0, 30) ?? ''
    return fail(
      'invalid-json',
      `file is not JSON: expected "{" to open an object, found ${JSON.stringify(found)}`,
      positionAt({ lineStarts }, start),
    )
  }
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false })
  const seen = new Set<number>()
  for (const error of errors) {
    // The parser may report one spot twice as it recovers; the author needs it once.
    if (seen.has(error.offset)) continue
    seen.add(error.offset)
    const code = printParseErrorCode(error.error)
    let message = parseErrorWording[code] ?? code
    const found = text.slice(error.offset, error.offset + Math.max(1, Math.min(error.length, 20)))
    if (code === 'InvalidSymbol') message += ` ${JSON.stringify(found)}`
    if (code === 'ValueExpected' || code === 'PropertyNameExpected') {
      // A trailing comma is the common cause: `[1, 2,]`.
      const before = text.slice(0, error.offset).trimEnd()
      if (before.endsWith(',') && (found === ']' || found === '}')) {
        message = 'trailing comma is not allowed in JSON; remove the "," before it'
      } else if (found) message += `, found ${JSON.stringify(found)}`
    }
    diagnostics.push({
      severity: 'error',
      file,
      ...positionAt({ lineStarts }, error.offset),
      rule: 'invalid-json',
      message,
    })
  }
  if (errors.length > 0 || !root) return { source: undefined, diagnostics }
  reportDuplicateKeys(root, file, { lineStarts }, diagnostics)
  return { source: { file, text, root, value: getNodeValue(root), lineStarts }, diagnostics }
}

/** JSON lets a key repeat and keeps the last; an author almost always meant one of them. */
function reportDuplicateKeys(
  node: Node,
  file: string,
  lines: Pick<JsonSource, 'lineStarts'>,
  diagnostics: Diagnostic[],
): void {
  if (node.type === 'object') {
    const seen = new Set<string>()
    for (const property of node.children ?? []) {
      const keyNode = property.children?.[0]
      if (!keyNode || typeof keyNode.value !== 'string') continue
      if (seen.has(keyNode.value)) {
        diagnostics.push({
          severity: 'warning',
          file,
          ...positionAt(lines, keyNode.offset),
          rule: 'duplicate-key',
          message: `key "${keyNode.value}" appears twice in this object; the last one wins, remove the other`,
        })
      }
      seen.add(keyNode.value)
    }
  }
  for (const child of node.children ?? []) reportDuplicateKeys(child, file, lines, diagnostics)
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let low = 0
  let high = bytes.byteLength
  // Shortest invalid prefix, by bisection: decode(prefix) fails only past the bad byte (or mid-character).
  while (low < high) {
    const mid = (low + high) >> 1
    try {
      decoder.decode(bytes.subarray(0, mid + 1), { stream: true })
      decoder.decode()
      low = mid + 1
    } catch {
      high = mid
    }
  }
  return Math.min(low, bytes.byteLength - 1)
}

/**
 * Position of the value at `path`, or of its key when `at` is `key`; walks up to the nearest
 * existing ancestor when the path does not exist (a missing key is reported at its object).
 */
export function locate(source: JsonSource, path: JsonPath, at: 'value' | 'key' = 'value'): Position {
  for (let length = path.length; length >= 0; length--) {
    const node = findNodeAtLocation(source.root, path.slice(0, length))
    if (!node) continue
    if (at === 'key' && length === path.length && node.parent?.type === 'property') {
      const keyNode = node.parent.children?.[0]
      if (keyNode) return positionAt(source, keyNode.offset)
    }
    return positionAt(source, node.offset)
  }
  return { line: 1, column: 1 }
}

/** `navigation.tabs[1].groups[0]`; keys that are not identifiers are quoted: `navigation["my key"]`. */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out
}
