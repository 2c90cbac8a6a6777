/**
 * Page front matter: the YAML block between `---` lines at the top of a page, read with source
 * positions and validated key by key against schemas/frontmatter.schema.json, so that a problem names
 * its line and lenient mode can drop just the offending key.
 */
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { closest, distance } from 'fastest-levenshtein'
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml'
import type { PageFrontMatter } from '../../schemas/generated/front-matter.js'
import { fromPackageRoot } from '../assets.js'
import { compiledFrom, compiledValidatorsPath } from '../compiled-validators.js'
import type { ValidationMode } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import { urlProblem } from '../url-policy.js'

/** Validated front matter; every field of the spec, unknown keys removed (types generated from the schema). */
export type FrontMatter = PageFrontMatter
export type IconType = NonNullable<FrontMatter['iconType']>
export type PageMode = NonNullable<FrontMatter['mode']>

export interface FrontMatterResult {
  /** `undefined` when there is no usable front matter (no block, bad YAML, or no title). */
  data: FrontMatter | undefined
  /** The valid keys read even when `data` is `undefined` for want of a title (lenient renders keep them). */
  partial?: Partial<FrontMatter>
  /** The page after the front matter block (the whole text when there is none). */
  body: string
  /** 1-based line of the source on which `body` starts. */
  bodyLine: number
  diagnostics: Diagnostic[]
}

interface PropertySchema {
  type?: string
  enum?: string[]
  items?: { type?: string }
  minLength?: number
}

interface FrontMatterSchema {
  properties: Record<string, PropertySchema>
  required: string[]
}

interface CompiledSchema {
  schema: FrontMatterSchema
  validators: Map<string, ValidateFunction>
}

let compiled: CompiledSchema | undefined

/** Where `npm run build` writes one validator per property (compiler/compiled-validators.ts). */
export const compiledFrontMatterPath = compiledValidatorsPath('frontmatter-validators')

/** One validator per property, so each key is judged on its own; the options both compilations use. */
export const frontMatterValidatorOptions = { strict: false } as const

export const frontMatterSchemaText = (): string =>
  readFileSync(fromPackageRoot('schemas', 'frontmatter.schema.json'), 'utf8')

/** Loaded once per process: the validators compiled at build, or compiled here when those are stale. */
function compiledSchema(): CompiledSchema {
  if (compiled) return compiled
  const text = frontMatterSchemaText()
  const schema = JSON.parse(text) as FrontMatterSchema
  const built = compiledFrom<Record<string, ValidateFunction>>(compiledFrontMatterPath, text)
  const ajv = built ? undefined : new Ajv(frontMatterValidatorOptions)
  const validators = new Map<string, ValidateFunction>()
  for (const [key, property] of Object.entries(schema.properties)) {
    // A schema whose SHA-256 matched has a validator for every key it declares.
    const validate = built?.[key] ?? ajv?.compile(property)
    if (!validate)
      throw new Error(`${compiledFrontMatterPath} has no validator for "${key}": run npm run build`)
    validators.set(key, validate)
  }
  compiled = { schema, validators }
  return compiled
}

/** The opening `---` line (sticky: only at the very start) and the block up to the closing `---` line. */
const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$(?![\s\S]))/my

/** Keys of social metadata the format passes to `<meta>` tags (schemas/frontmatter.schema.json). */
const METADATA_KEY = /^(og|twitter|article|fb):/

export function readFrontMatter(text: string, file: string, mode: ValidationMode): FrontMatterResult {
  const diagnostics: Diagnostic[] = []
  const problem = mode === 'strict' ? 'error' : 'warning'
  BLOCK.lastIndex = 0
  const block = BLOCK.exec(text)
  if (!block) {
    diagnostics.push({
      severity: problem,
      file,
      line: 1,
      column: 1,
      rule: 'missing-front-matter',
      message: 'Unexpected page without front matter, expected a `---` block with at least `title: …`',
    })
    return { data: undefined, body: text, bodyLine: 1, diagnostics }
  }
  const yamlText = block[1] ?? ''
  const body = text.slice(block[0].length)
  const bodyLine = countLines(block[0]) + 1
  // The YAML starts on line 2 of the page; positions from the parser are shifted by one line.
  const lineCounter = new LineCounter()
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const place = (offset: number | undefined): { line: number; column: number } => {
    const position = lineCounter.linePos(offset ?? 0)
    return { line: position.line + 1, column: position.col }
  }

  if (document.errors.length > 0) {
    for (const error of document.errors) {
      diagnostics.push({
        severity: problem,
        file,
        ...place(error.pos[0]),
        rule: 'front-matter-yaml',
        message: `Unexpected YAML in front matter: ${firstLine(error.message)}`,
      })
    }
    return { data: undefined, body, bodyLine, diagnostics }
  }
  const contents = document.contents
  if (contents !== null && !isMap(contents)) {
    diagnostics.push({
      severity: problem,
      file,
      line: 2,
      column: 1,
      rule: 'front-matter-shape',
      message: 'Unexpected front matter that is not a list of `key: value` lines, expected `title: …`',
    })
    return { data: undefined, body, bodyLine, diagnostics }
  }

  const { schema, validators } = compiledSchema()
  const data: Record<string, unknown> = {}
  for (const pair of contents?.items ?? []) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
    const keyPlace = place(isScalar(pair.key) ? pair.key.range?.[0] : undefined)
    const validate = validators.get(key)
    // Social metadata (`og:title`, `twitter:card`) is the format's own: kept for the page's <meta> tags.
    if (!validate && METADATA_KEY.test(key)) continue
    if (!validate) {
      const suggestion = closest(key, Object.keys(schema.properties))
      const hint = suggestion && isLikelyTypo(key, suggestion) ? `; did you mean "${suggestion}"?` : ''
      diagnostics.push({
        // A likely typo is an error where authors work; another key of the author's own only a warning.
        severity: hint ? problem : 'warning',
        file,
        ...keyPlace,
        path: key,
        rule: 'unknown-key',
        message:
          mode === 'strict'
            ? `Unknown front matter key "${key}"${hint || ' is not used by this site; remove it or ignore this warning'}`
            : `Unknown front matter key "${key}" ignored${hint}`,
      })
      continue
    }
    let value = isScalar(pair.value) || pair.value === null ? toScalar(pair.value) : toJSValue(pair.value)
    const property = schema.properties[key] ?? {}
    // `title: 2024` is a string to its author; YAML reads it as a number.
    if (property.type === 'string' && typeof value === 'number') {
      const source = isScalar(pair.value) ? pair.value.source : undefined
      value = typeof source === 'string' ? source : String(value)
    }
    if (!validate(value)) {
      const valuePlace =
        pair.value && typeof pair.value === 'object' && 'range' in pair.value && pair.value.range
          ? place(pair.value.range[0])
          : keyPlace
      diagnostics.push({
        severity: problem,
        file,
        ...valuePlace,
        path: key,
        rule: 'invalid-value',
        message: `Unexpected ${describe(value)} for "${key}", expected ${expected(property)}${mode === 'lenient' ? '; the key is ignored' : ''}`,
      })
      continue
    }
    // `url` turns the page's sidebar entry into a link: it passes the one URL policy like any other.
    const unsafe = key === 'url' && typeof value === 'string' ? urlProblem(value, 'link') : undefined
    if (unsafe) {
      diagnostics.push({
        severity: problem,
        file,
        ...keyPlace,
        path: key,
        rule: 'unsafe-url',
        message: `Unexpected ${unsafe} for "url", expected an http(s) URL or a site path; the key is ignored`,
      })
      continue
    }
    data[key] = value
  }

  for (const required of schema.required) {
    if (data[required] !== undefined) continue
    // An API page's title comes from its spec or AsyncAPI document (compiler/openapi/ writes it in before the page renders).
    if (
      required === 'title' &&
      ['openapi', 'openapi-schema', 'asyncapi'].some((key) => typeof data[key] === 'string')
    )
      continue
    diagnostics.push({
      severity: problem,
      file,
      line: 1,
      column: 1,
      path: required,
      rule: 'missing-title',
      message: `Missing front matter key "${required}", expected e.g. \`${required}: Getting started\``,
    })
    return { data: undefined, partial: data as Partial<FrontMatter>, body, bodyLine, diagnostics }
  }
  return { data: data as unknown as FrontMatter, body, bodyLine, diagnostics }
}

function toScalar(node: unknown): unknown {
  if (node === null) return null
  return isScalar(node) ? node.value : undefined
}

function toJSValue(node: unknown): unknown {
  if (node && typeof node === 'object' && 'toJSON' in node && typeof node.toJSON === 'function') {
    return (node.toJSON as () => unknown).call(node)
  }
  return node
}

const countLines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
const firstLine = (message: string): string => message.split('\n')[0] ?? message

/** Suggest a key only when it is close enough to be a typo, not any key at all. */
const isLikelyTypo = (key: string, suggestion: string): boolean =>
  distance(key.toLowerCase(), suggestion.toLowerCase()) <= Math.max(2, Math.floor(suggestion.length / 3))

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty value'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'object') return 'mapping'
  if (typeof value === 'string') return `"${value}"`
  return `${typeof value} ${String(value)}`
}

function expected(property: PropertySchema): string {
  if (property.enum) return `one of ${property.enum.map((option) => `"${option}"`).join(', ')}`
  if (property.type === 'array') return `a list of ${property.items?.type ?? 'value'}s`
  if (property.type === 'boolean') return '`true` or `false`'
  if (property.type === 'string') return property.minLength ? 'a non-empty string' : 'a string'
  return property.type ?? 'a valid value'
}
