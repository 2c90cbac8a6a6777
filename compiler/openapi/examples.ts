/**
 * Example values made from schemas, and request examples in the languages of `api.examples.languages`:
 * what an operation page shows in its RequestExample and ResponseExample panels when the spec has no
 * `x-codeSamples`. Circular schemas stop where they repeat.
 */
import type { ApiContent, ApiOperation, ApiParameter, Schema } from './operations.js'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const MAX_DEPTH = 6

/** An example value for `schema`: its own example, default, const or first enum value, else one built from its type. */
export function exampleOf(
  schema: Schema | undefined,
  stack: Schema[] = [],
  leaveOut?: 'readOnly' | 'writeOnly',
): unknown {
  if (!schema || stack.includes(schema) || stack.length > MAX_DEPTH) return undefined
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const inner = [...stack, schema]
  for (const key of ['oneOf', 'anyOf'] as const) {
    const first = Array.isArray(schema[key]) ? schema[key][0] : undefined
    if (isRecord(first)) return exampleOf(first, inner, leaveOut)
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = {}
    let scalar: unknown
    for (const part of schema.allOf) {
      const value = isRecord(part) ? exampleOf(part, inner, leaveOut) : undefined
      if (isRecord(value)) Object.assign(merged, value)
      else if (value !== undefined) scalar = value
    }
    return Object.keys(merged).length > 0 ? merged : scalar
  }
  const type = typeOf(schema)
  if (type === 'object' || isRecord(schema.properties)) {
    const value: Record<string, unknown> = {}
    if (isRecord(schema.properties))
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!isRecord(property) || (leaveOut && property[leaveOut] === true)) continue
        const example = exampleOf(property, inner, leaveOut)
        if (example !== undefined) value[name] = example
      }
    return value
  }
  if (type === 'array') {
    const item = isRecord(schema.items) ? exampleOf(schema.items, inner, leaveOut) : undefined
    return item === undefined ? [] : [item]
  }
  if (type === 'integer' || type === 'number') {
    if (typeof schema.minimum === 'number') return schema.minimum
    return type === 'integer' ? 123 : 1.5
  }
  if (type === 'boolean') return true
  if (type === 'null') return null
  if (type === 'string') return stringExample(schema)
  return undefined
}

/** The first non-null type of a schema (3.1 writes `type: [string, "null"]`). */
export function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') as string | undefined
  return undefined
}

function stringExample(schema: Schema): string {
  switch (schema.format) {
    case 'date-time':
      return '2024-01-01T00:00:00Z'
    case 'date':
      return '2024-01-01'
    case 'email':
      return 'jane@example.com'
    case 'uuid':
      return '3c90c3cc-0d44-4b50-8888-8dd25736052a'
    case 'uri':
    case 'url':
      return 'https://example.com'
    case 'binary':
      return '@file'
    default:
      return '<string>'
  }
}

/** An example for a content entry: the media type's own example, else one built from its schema. */
export const contentExample = (content: ApiContent, direction: 'request' | 'response'): unknown =>
  content.example !== undefined
    ? content.example
    : exampleOf(content.schema, [], direction === 'request' ? 'readOnly' : 'writeOnly')

export const LANGUAGES = ['curl', 'javascript', 'python', 'go'] as const
export type ExampleLanguage = (typeof LANGUAGES)[number]

/** docs.json names for a language, as readers and the format write them. */
export function exampleLanguage(name: string): ExampleLanguage | undefined {
  const key = name.toLowerCase()
  if (key === 'curl' || key === 'bash' || key === 'shell' || key === 'sh') return 'curl'
  if (key === 'javascript' || key === 'js' || key === 'node' || key === 'typescript') return 'javascript'
  if (key === 'python' || key === 'py') return 'python'
  if (key === 'go' || key === 'golang') return 'go'
  return undefined
}

export interface RequestShape {
  method: string
  url: string
  headers: [string, string][]
  /** JSON text of the body, or form fields. */
  json?: string
  form?: [string, string][]
}

/** The request an example sends: first server, path as written, query and headers, auth, and the body. */
export function requestShape(operation: ApiOperation, allParameters: boolean): RequestShape {
  const server = operation.servers[0]?.url.replace(/\/$/, '') ?? ''
  const included = (parameter: ApiParameter) => parameter.required || allParameters
  const query = operation.parameters
    .filter((parameter) => parameter.location === 'query' && included(parameter))
    .map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(scalarText(parameter))}`)
  const headers: [string, string][] = []
  for (const scheme of operation.security[0] ?? []) {
    if (scheme.type === 'http' && scheme.scheme === 'basic')
      headers.push(['Authorization', 'Basic <encoded-value>'])
    else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect')
      headers.push(['Authorization', 'Bearer <token>'])
    else if (scheme.type === 'apiKey' && scheme.location === 'header' && scheme.parameter)
      headers.push([scheme.parameter, '<api-key>'])
    else if (scheme.type === 'apiKey' && scheme.location === 'query' && scheme.parameter)
      query.push(`${encodeURIComponent(scheme.parameter)}=<api-key>`)
  }
  for (const parameter of operation.parameters)
    if (parameter.location === 'header' && included(parameter))
      headers.push([parameter.name, scalarText(parameter)])
  const shape: RequestShape = {
    method: operation.method.toUpperCase(),
    url: `${server}${operation.path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
    headers,
  }
  const content = operation.requestBody?.contents[0]
  if (content) {
    headers.push(['Content-Type', content.contentType])
    const example = contentExample(content, 'request')
    if (content.contentType.includes('form') && isRecord(example))
      shape.form = Object.entries(example).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : JSON.stringify(value),
      ])
    else if (example !== undefined) shape.json = JSON.stringify(example, null, 2)
  }
  return shape
}

function scalarText(parameter: ApiParameter): string {
  const value = parameter.example !== undefined ? parameter.example : exampleOf(parameter.schema)
  if (value === undefined) return '<value>'
  if (Array.isArray(value)) return value.map(String).join(',')
  return typeof value === 'string' ? value : JSON.stringify(value)
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

export function requestExample(shape: RequestShape, language: ExampleLanguage): string {
  switch (language) {
    case 'curl': {
      const parts = [
        `curl --request ${shape.method}`,
        `  --url ${shellQuote(shape.url)}`,
        ...shape.headers.map(([name, value]) => `  --header ${shellQuote(`${name}: ${value}`)}`),
        ...(shape.form ?? []).map(([name, value]) => `  --form ${shellQuote(`${name}=${value}`)}`),
        ...(shape.json !== undefined ? [`  --data ${shellQuote(shape.json)}`] : []),
      ]
      return parts.join(' \\\n')
    }
    case 'javascript': {
      const options: string[] = [`  method: ${JSON.stringify(shape.method)}`]
      const headers = shape.headers.filter(([name]) => !(shape.form && name === 'Content-Type'))
      if (headers.length > 0)
        options.push(
          `  headers: {\n${headers.map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(',\n')}\n  }`,
        )
      const before: string[] = []
      if (shape.form) {
        before.push('const form = new FormData()')
        for (const [name, value] of shape.form)
          before.push(`form.append(${JSON.stringify(name)}, ${JSON.stringify(value)})`)
        before.push('')
        options.push('  body: form')
      } else if (shape.json !== undefined) options.push(`  body: JSON.stringify(${indent(shape.json, '  ')})`)
      return [
        ...before,
        `const response = await fetch(${JSON.stringify(shape.url)}, {\n${options.join(',\n')}\n})`,
        '',
        'console.log(await response.json())',
      ].join('\n')
    }
    case 'python': {
      const lines = ['import requests', '', `url = ${JSON.stringify(shape.url)}`]
      const headers = shape.headers.filter(([name]) => !(shape.form && name === 'Content-Type'))
      const args = ['url']
      if (shape.json !== undefined) {
        lines.push(`payload = ${pythonLiteral(shape.json)}`)
        args.push('json=payload')
      } else if (shape.form) {
        lines.push(
          `data = {${shape.form.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(', ')}}`,
        )
        args.push('data=data')
      }
      if (headers.length > 0) {
        lines.push(
          `headers = {\n${headers.map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(',\n')}\n}`,
        )
        args.push('headers=headers')
      }
      lines.push(
        '',
        `response = requests.request(${JSON.stringify(shape.method)}, ${args.join(', ')})`,
        '',
        'print(response.text)',
      )
      return lines.join('\n')
    }
    case 'go': {
      const body =
        shape.json ??
        (shape.form
          ? shape.form
              .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
              .join('&')
          : undefined)
      const lines = [
        'package main',
        '',
        'import (',
        '\t"fmt"',
        '\t"io"',
        '\t"net/http"',
        ...(body !== undefined ? ['\t"strings"'] : []),
        ')',
        '',
        'func main() {',
        `\turl := ${JSON.stringify(shape.url)}`,
      ]
      if (body !== undefined) lines.push(`\tpayload := strings.NewReader(${goString(body)})`)
      lines.push(
        `\treq, _ := http.NewRequest(${JSON.stringify(shape.method)}, url, ${body !== undefined ? 'payload' : 'nil'})`,
      )
      for (const [name, value] of shape.headers)
        lines.push(`\treq.Header.Add(${JSON.stringify(name)}, ${JSON.stringify(value)})`)
      lines.push(
        '\tres, _ := http.DefaultClient.Do(req)',
        '\tdefer res.Body.Close()',
        '\tbody, _ := io.ReadAll(res.Body)',
        '\tfmt.Println(string(body))',
        '}',
      )
      return lines.join('\n')
    }
  }
}

const indent = (text: string, prefix: string): string => text.split('\n').join(`\n${prefix}`)

/** JSON text as a Python literal: the same but for true/false/null. */
const pythonLiteral = (json: string): string =>
  json.replace(
    /("(?:[^"\\]|\\.)*")|\b(true|false|null)\b/g,
    (whole, string: string | undefined, word: string) =>
      string ? whole : word === 'true' ? 'True' : word === 'false' ? 'False' : 'None',
  )

const goString = (text: string): string => (text.includes('`') ? JSON.stringify(text) : `\`${text}\``)
