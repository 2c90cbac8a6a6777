/**
 * One operation as the MDX of its page, written with the built-in components (ApiEndpoint, ParamField,
 * ResponseField, Expandable, Tabs, RequestExample, ResponseExample), so a generated page flows through
 * the same render, search index, llms.txt and `.md` export as a hand-written one. Text from the spec is
 * Markdown: it is escaped so that nothing in it reads as MDX (no expressions, no JSX).
 */
import { stringify as stringifyYaml } from 'yaml'
import { fieldSlug } from '../platform-ids.js'
import type { ApiChannel } from './channels.js'
import {
  contentExample,
  type ExampleLanguage,
  exampleLanguage,
  exampleOf,
  LANGUAGES,
  requestExample,
  requestShape,
  typeOf,
} from './examples.js'
import type { ApiContent, ApiOperation, ApiParameter, ApiSecurityScheme, Schema } from './operations.js'

export interface ApiPageSettings {
  /** `api.examples.languages`, as written. */
  languages?: readonly string[]
  /** `api.examples.defaults`: `all` puts optional parameters in the examples too. */
  defaults?: 'all' | 'required'
  /** `api.examples.autogenerate`: false shows only the spec's own `x-codeSamples`. */
  autogenerate?: boolean
  /** `api.params.expanded`. */
  expanded?: 'all' | 'closed'
  /** `api.playground.display`. */
  playground?: 'auth' | 'interactive' | 'none' | 'simple'
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Nested fields deeper than this are left out (a spec's trees are rarely deeper; circular ones are endless). */
const MAX_FIELD_DEPTH = 8

/** The front matter a generated page starts with. */
export function operationFrontMatter(operation: ApiOperation, reference: string): Record<string, unknown> {
  const front: Record<string, unknown> = { title: operationTitle(operation), openapi: reference }
  if (operation.deprecated) front.deprecated = true
  return front
}

export const operationTitle = (operation: ApiOperation): string =>
  operation.summary ?? operation.operationId ?? `${operation.method.toUpperCase()} ${operation.path}`

export function frontMatterBlock(front: Record<string, unknown>): string {
  return `---\n${stringifyYaml(front, { lineWidth: 0 })}---\n\n`
}

/**
 * The MDX body of an operation page (without front matter), what goes above an author's own content,
 * as its top-level blocks, each complete on its own (a component with its children, a heading, a
 * description): joined by blank lines they are the body. A generated page is parsed block by block
 * (see fragments.ts), so the blocks many operations share (a `$ref`'d schema's fields) are parsed once.
 */
export function operationParts(operation: ApiOperation, settings: ApiPageSettings): string[] {
  const parts: string[] = []
  parts.push(endpoint(operation, settings))
  // Two blocks: the response panel is the same for every operation that returns the same schema.
  parts.push(...examplePanels(operation, settings))
  if (operation.description) parts.push(markdown(operation.description))
  const auth = authorizations(operation.security)
  if (auth) parts.push(auth)
  const sections: [ApiParameter['location'], string][] = [
    ['path', 'Path parameters'],
    ['query', 'Query parameters'],
    ['header', 'Headers'],
    ['cookie', 'Cookies'],
  ]
  for (const [location, heading] of sections) {
    const parameters = operation.parameters.filter((parameter) => parameter.location === location)
    if (parameters.length === 0) continue
    parts.push(`## ${heading}`)
    for (const parameter of parameters) parts.push(parameterField(parameter, settings))
  }
  const body = operation.requestBody
  if (body && body.contents.length > 0) {
    parts.push('## Body')
    if (body.description) parts.push(markdown(body.description))
    parts.push(byContentType(body.contents, (content) => bodyFields(content, settings)))
  }
  if (operation.responses.length > 0) {
    parts.push('## Response')
    for (const response of operation.responses) {
      parts.push(`### ${response.status}`)
      if (response.description) parts.push(markdown(response.description))
      if (response.contents.length > 0)
        parts.push(byContentType(response.contents, (content) => responseFields(content, settings)))
    }
  }
  return parts.filter((part) => part !== '')
}

/** A component schema (`openapi-schema:` pages): its fields as a tree. */
export function schemaBody(name: string, schema: Schema, settings: ApiPageSettings): string {
  const parts = [`<ApiSchema name=${attr(name)} type=${attr(typeLabel(schema))} />`]
  if (typeof schema.description === 'string') parts.push(markdown(schema.description))
  parts.push(responseFields({ contentType: '', schema }, settings))
  return `${parts.join('\n\n')}\n`
}

function endpoint(operation: ApiOperation, settings: ApiPageSettings): string {
  const props = [
    `method=${attr(operation.webhook ? 'webhook' : operation.method.toUpperCase())}`,
    `path=${attr(operation.path)}`,
  ]
  if (operation.servers.length > 0)
    props.push(`servers=${jsonAttr(operation.servers.map((server) => server.url))}`)
  if (operation.deprecated) props.push('deprecated')
  const display = settings.playground ?? 'interactive'
  // Without servers in the spec, the reader enters the base URL.
  if (display === 'interactive' && !operation.webhook) {
    const body = operation.requestBody?.contents[0]
    const example = body ? contentExample(body, 'request') : undefined
    const playground = {
      parameters: operation.parameters.map((parameter) => ({
        name: parameter.name,
        in: parameter.location,
        required: parameter.required,
      })),
      auth: (operation.security[0] ?? []).map((scheme) => ({
        type: scheme.type,
        ...(scheme.scheme ? { scheme: scheme.scheme } : {}),
        ...(scheme.location ? { in: scheme.location } : {}),
        ...(scheme.parameter ? { name: scheme.parameter } : {}),
      })),
      ...(body ? { contentType: body.contentType } : {}),
      ...(example !== undefined && body?.contentType.includes('json')
        ? { body: JSON.stringify(example, null, 2) }
        : {}),
    }
    props.push(`playground=${jsonAttr(playground)}`)
  }
  return jsxTag('ApiEndpoint', props)
}

function examplePanels(operation: ApiOperation, settings: ApiPageSettings): string[] {
  const requests: string[] = []
  if (operation.codeSamples.length > 0) {
    for (const sample of operation.codeSamples)
      requests.push(fence(fenceLanguage(sample.lang), sample.label ?? sample.lang, sample.source))
  } else if (settings.autogenerate !== false && !operation.webhook) {
    const languages = languagesOf(settings.languages)
    const shape = requestShape(operation, settings.defaults === 'all')
    for (const language of languages)
      requests.push(
        fence(LANGUAGE_FENCE[language][0], LANGUAGE_FENCE[language][1], requestExample(shape, language)),
      )
  }
  const responses: string[] = []
  for (const response of operation.responses) {
    const content =
      response.contents.find((entry) => entry.contentType.includes('json')) ?? response.contents[0]
    if (!content) continue
    const example = contentExample(content, 'response')
    if (example === undefined) continue
    const text =
      typeof example === 'string' && !content.contentType.includes('json')
        ? example
        : JSON.stringify(example, null, 2)
    responses.push(fence(content.contentType.includes('json') ? 'json' : 'text', response.status, text))
  }
  const parts: string[] = []
  if (requests.length > 0) parts.push(`<RequestExample>\n\n${requests.join('\n\n')}\n\n</RequestExample>`)
  if (responses.length > 0) parts.push(`<ResponseExample>\n\n${responses.join('\n\n')}\n\n</ResponseExample>`)
  return parts
}

const LANGUAGE_FENCE: Record<ExampleLanguage, [string, string]> = {
  curl: ['bash', 'cURL'],
  javascript: ['javascript', 'JavaScript'],
  python: ['python', 'Python'],
  go: ['go', 'Go'],
}

/** A code sample's `lang` as a fence language: `cURL` and `shell` are bash, `Node` is JavaScript. */
function fenceLanguage(lang: string): string {
  const known = exampleLanguage(lang)
  return known ? LANGUAGE_FENCE[known][0] : lang.toLowerCase()
}

function languagesOf(names: readonly string[] | undefined): ExampleLanguage[] {
  if (!names || names.length === 0) return [...LANGUAGES]
  const chosen = names
    .map(exampleLanguage)
    .filter((language): language is ExampleLanguage => language !== undefined)
  return chosen.length > 0 ? [...new Set(chosen)] : [...LANGUAGES]
}

function authorizations(security: ApiSecurityScheme[][]): string {
  const option = security[0]
  if (!option || option.length === 0) return ''
  const fields = option.map((scheme) => {
    let location = 'header'
    let name = 'Authorization'
    let type = 'string'
    let text: string
    if (scheme.type === 'apiKey') {
      location = scheme.location === 'query' ? 'query' : scheme.location === 'cookie' ? 'cookie' : 'header'
      name = scheme.parameter ?? scheme.name
      text = `API key sent in the \`${name}\` ${location}.`
    } else if (scheme.type === 'http' && scheme.scheme === 'basic') {
      text =
        'Basic authentication header of the form `Basic <encoded-value>`, where `<encoded-value>` is the base64 of `username:password`.'
    } else if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      type = scheme.type
      text = `Bearer token from ${scheme.type === 'oauth2' ? 'OAuth 2.0' : 'OpenID Connect'}${scheme.scopes.length > 0 ? `, with scopes ${scheme.scopes.map(code).join(', ')}` : ''}.`
    } else {
      text = 'Bearer authentication header of the form `Bearer <token>`, where `<token>` is your auth token.'
    }
    const description = scheme.description ? `\n\n${markdown(scheme.description)}` : ''
    return `<ParamField ${location}=${attr(name)} type=${attr(type)} required>\n\n${text}${description}\n\n</ParamField>`
  })
  return `## Authorizations\n\n${fields.join('\n\n')}`
}

function parameterField(parameter: ApiParameter, settings: ApiPageSettings): string {
  const schema = parameter.schema ?? {}
  return field('ParamField', `${parameter.location}=${attr(parameter.name)}`, schema, {
    required: parameter.required,
    deprecated: parameter.deprecated,
    ...(parameter.description ? { description: parameter.description } : {}),
    settings,
    stack: [],
  })
}

function byContentType(contents: ApiContent[], render: (content: ApiContent) => string): string {
  if (contents.length === 1) {
    const [content] = contents as [ApiContent]
    return `${code(content.contentType)}\n\n${render(content)}`
  }
  const tabs = contents.map(
    (content) => `<Tab title=${attr(content.contentType)}>\n\n${render(content)}\n\n</Tab>`,
  )
  return `<Tabs>\n\n${tabs.join('\n\n')}\n\n</Tabs>`
}

function bodyFields(content: ApiContent, settings: ApiPageSettings): string {
  return schemaFields('ParamField', 'body', content.schema, settings)
}

function responseFields(content: ApiContent, settings: ApiPageSettings): string {
  return schemaFields('ResponseField', 'name', content.schema, settings)
}

/**
 * A dereferenced spec shares one object per `$ref`'d schema, so the fields of a schema many operations
 * return are written once (by schema, component and `api.params.expanded`, the one setting they read).
 */
const fieldsOfSchema = new WeakMap<Schema, Map<string, string>>()

/** The top-level fields of a body: an object's properties, or the value itself when it is not an object. */
function schemaFields(
  component: string,
  nameKey: string,
  schema: Schema | undefined,
  settings: ApiPageSettings,
): string {
  if (!schema) return ''
  let written = fieldsOfSchema.get(schema)
  if (!written) {
    written = new Map()
    fieldsOfSchema.set(schema, written)
  }
  const key = `${component} ${nameKey} ${settings.expanded ?? ''}`
  let fields = written.get(key)
  if (fields === undefined) {
    fields = writeSchemaFields(component, nameKey, schema, settings)
    written.set(key, fields)
  }
  return fields
}

function writeSchemaFields(
  component: string,
  nameKey: string,
  schema: Schema,
  settings: ApiPageSettings,
): string {
  const merged = mergeAllOf(schema)
  const properties = isRecord(merged.properties) ? merged.properties : undefined
  if (properties && !hasAlternatives(merged)) {
    const required = requiredOf(merged)
    return Object.entries(properties)
      .filter((entry): entry is [string, Schema] => isRecord(entry[1]))
      .map(([name, property]) =>
        field(component, `${nameKey}=${attr(name)}`, property, {
          required: required.has(name),
          settings,
          stack: [schema],
        }),
      )
      .join('\n\n')
  }
  const name = typeOf(merged) === 'array' ? 'items' : 'body'
  return field(component, `${nameKey}=${attr(name)}`, schema, { required: false, settings, stack: [] })
}

interface FieldOptions {
  required: boolean
  deprecated?: boolean
  description?: string
  settings: ApiPageSettings
  /** The schemas this field sits inside: one of them again is a circular reference. */
  stack: Schema[]
}

/** The anchor the hosted platform gives a generated field: `query-limit`, `body-name`, `response-data`. */
function fieldAnchor(component: string, nameProp: string): string {
  const [location = '', written = '""'] = nameProp.split(/=(.*)/s)
  // `attr` wrote the name as "x", 'x' or {"x"}.
  const name = written.startsWith('{') ? (JSON.parse(written.slice(1, -1)) as string) : written.slice(1, -1)
  return fieldSlug(component === 'ResponseField' ? 'response' : location, name)
}

function field(component: string, nameProp: string, schema: Schema, options: FieldOptions): string {
  const merged = mergeAllOf(schema)
  const props = [nameProp, `id=${attr(fieldAnchor(component, nameProp))}`, `type=${attr(typeLabel(schema))}`]
  if (options.required) props.push('required')
  if (options.deprecated || merged.deprecated === true) props.push('deprecated')
  if (merged.default !== undefined) props.push(`default=${attr(valueText(merged.default))}`)
  const body: string[] = []
  const description =
    options.description ?? (typeof merged.description === 'string' ? merged.description : undefined)
  if (description) body.push(markdown(description))
  const facts = constraints(merged)
  if (facts) body.push(facts)
  if (options.stack.some((outer) => sameSchema(outer, schema)))
    body.push('*Circular: the same schema as an enclosing field.*')
  else if (options.stack.length < MAX_FIELD_DEPTH) {
    const children = childFields(component, schema, merged, { ...options, stack: [...options.stack, schema] })
    if (children) body.push(children)
  }
  return `<${component} ${props.join(' ')}>\n\n${body.join('\n\n')}\n\n</${component}>`
}

function childFields(component: string, schema: Schema, merged: Schema, options: FieldOptions): string {
  const nameKey = component === 'ParamField' ? 'body' : 'name'
  const open = options.settings.expanded === 'all' ? ' defaultOpen' : ''
  const alternatives = (['oneOf', 'anyOf'] as const).find((key) => Array.isArray(merged[key]))
  if (alternatives) {
    const options_ = (merged[alternatives] as unknown[]).filter(isRecord)
    const tabs = options_.map((option, index) => {
      const title =
        typeof option.title === 'string' ? option.title : `Option ${index + 1} · ${typeLabel(option)}`
      const inner = objectFields(component, nameKey, option, options)
      const text = typeof option.description === 'string' ? markdown(option.description) : ''
      return `<Tab title=${attr(title)}>\n\n${[text, inner || code(typeLabel(option))].filter(Boolean).join('\n\n')}\n\n</Tab>`
    })
    return `${alternatives === 'oneOf' ? 'One of' : 'Any of'}:\n\n<Tabs>\n\n${tabs.join('\n\n')}\n\n</Tabs>`
  }
  const target = typeOf(merged) === 'array' && isRecord(merged.items) ? merged.items : schema
  if (target !== schema && options.stack.includes(target))
    return '*Circular: items are the same schema as an enclosing field.*'
  const inner = objectFields(
    component,
    nameKey,
    target,
    target === schema ? options : { ...options, stack: [...options.stack, target] },
  )
  if (!inner) {
    if (target !== schema && isRecord(target)) {
      const itemAlternatives = mergeAllOf(target)
      if (hasAlternatives(itemAlternatives)) return childFields(component, target, itemAlternatives, options)
    }
    return ''
  }
  const title = target === schema ? 'properties' : 'item properties'
  return `<Expandable title=${attr(title)}${open}>\n\n${inner}\n\n</Expandable>`
}

function objectFields(component: string, nameKey: string, schema: Schema, options: FieldOptions): string {
  const merged = mergeAllOf(schema)
  if (!isRecord(merged.properties)) return ''
  const required = requiredOf(merged)
  return Object.entries(merged.properties)
    .filter((entry): entry is [string, Schema] => isRecord(entry[1]))
    .map(([name, property]) =>
      field(component, `${nameKey}=${attr(name)}`, property, {
        required: required.has(name),
        settings: options.settings,
        stack: options.stack,
      }),
    )
    .join('\n\n')
}

/** A `$ref` with sibling keys dereferences to a new object around the same parts: the same schema all the same. */
const sameSchema = (a: Schema, b: Schema): boolean =>
  a === b ||
  (a.allOf !== undefined && a.allOf === b.allOf) ||
  (a.properties !== undefined && a.properties === b.properties)

const hasAlternatives = (schema: Schema): boolean =>
  Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)

const requiredOf = (schema: Schema): Set<string> =>
  new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((name): name is string => typeof name === 'string')
      : [],
  )

/** `allOf` folded into one schema: properties and `required` joined, the first of every other keyword kept. */
export function mergeAllOf(schema: Schema, seen: Schema[] = []): Schema {
  if (!Array.isArray(schema.allOf) || seen.includes(schema)) return schema
  const merged: Schema = {}
  const properties: Record<string, unknown> = {}
  const required = new Set<string>()
  const parts = [...schema.allOf.filter(isRecord).map((part) => mergeAllOf(part, [...seen, schema])), schema]
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'allOf' || key === 'properties' || key === 'required') continue
      if (merged[key] === undefined || part === schema) merged[key] = value
    }
    if (isRecord(part.properties)) Object.assign(properties, part.properties)
    for (const name of requiredOf(part)) required.add(name)
  }
  if (Object.keys(properties).length > 0) {
    merged.properties = properties
    merged.type ??= 'object'
  }
  if (required.size > 0) merged.required = [...required]
  return merged
}

/** `string<uuid>`, `integer[]`, `enum<string>`, `object | null`… the short type shown beside a field name. */
export function typeLabel(schema: Schema, depth = 0): string {
  const merged = mergeAllOf(schema)
  const nullable = merged.nullable === true || (Array.isArray(merged.type) && merged.type.includes('null'))
  let label: string
  const type = typeOf(merged)
  if (Array.isArray(merged.enum)) label = `enum<${type ?? 'string'}>`
  else if (merged.const !== undefined) label = type ?? typeof merged.const
  else if (type === 'array') {
    const items = isRecord(merged.items) && depth < 3 ? typeLabel(merged.items, depth + 1) : 'any'
    label = /[ |<]/.test(items) && !/^\w+<[^>]+>$/.test(items) ? `(${items})[]` : `${items}[]`
  } else if (type) label = typeof merged.format === 'string' ? `${type}<${merged.format}>` : type
  else if (hasAlternatives(merged)) {
    const alternatives = ((merged.oneOf ?? merged.anyOf) as unknown[]).filter(isRecord)
    label =
      depth < 3 ? [...new Set(alternatives.map((option) => typeLabel(option, depth + 1)))].join(' | ') : 'any'
  } else if (isRecord(merged.properties)) label = 'object'
  else label = 'any'
  return nullable && !label.endsWith('| null') ? `${label} | null` : label
}

/** Limits, allowed values, read/write-only: one line of facts under a field's description. */
function constraints(schema: Schema): string {
  const facts: string[] = []
  if (Array.isArray(schema.enum))
    facts.push(`Allowed values: ${schema.enum.map((value) => code(valueText(value))).join(', ')}`)
  if (schema.const !== undefined) facts.push(`Always ${code(valueText(schema.const))}`)
  const low = schema.exclusiveMinimum ?? schema.minimum
  const high = schema.exclusiveMaximum ?? schema.maximum
  if (typeof low === 'number' || typeof high === 'number' || schema.exclusiveMinimum === true) {
    const lowSign =
      typeof schema.exclusiveMinimum === 'number' || schema.exclusiveMinimum === true ? '<' : '<='
    const highSign =
      typeof schema.exclusiveMaximum === 'number' || schema.exclusiveMaximum === true ? '<' : '<='
    const range = [
      typeof low === 'number' ? `${low} ${lowSign} ` : '',
      'x',
      typeof high === 'number' ? ` ${highSign} ${high}` : '',
    ].join('')
    facts.push(`Range: ${code(range)}`)
  }
  if (typeof schema.minLength === 'number' || typeof schema.maxLength === 'number')
    facts.push(`Length: ${code(`${schema.minLength ?? 0} - ${schema.maxLength ?? '∞'}`)}`)
  if (typeof schema.minItems === 'number' || typeof schema.maxItems === 'number')
    facts.push(`Items: ${code(`${schema.minItems ?? 0} - ${schema.maxItems ?? '∞'}`)}`)
  if (typeof schema.pattern === 'string') facts.push(`Pattern: ${code(schema.pattern)}`)
  if (schema.readOnly === true) facts.push('Read-only')
  if (schema.writeOnly === true) facts.push('Write-only')
  if (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')))
    facts.push('Nullable')
  if (schema.example !== undefined && !isRecord(schema.example) && !Array.isArray(schema.example))
    facts.push(`Example: ${code(valueText(schema.example))}`)
  return facts.join(' · ')
}

const valueText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))

/** A JSX attribute holding any string: quoted as it is when it can be (parsing an expression costs more), else as a JS string literal. */
const attr = (value: string): string =>
  /^[^"&<\n]*$/.test(value)
    ? `"${value}"`
    : /^[^'&<\n]*$/.test(value)
      ? `'${value}'`
      : `{${JSON.stringify(value)}}`

/**
 * A self-closing tag with one attribute a line: the MDX parser retries a long line from its start as it
 * tries each construct, so one 400-character line costs more to parse than the rest of the page.
 */
export const jsxTag = (name: string, props: readonly string[]): string =>
  `<${name}\n  ${props.join('\n  ')}\n/>`

/**
 * JSON as a single-quoted JSX attribute string, read back by the component: the MDX parser reads a
 * string in a fraction of the time it takes to parse an `{expression}` (half a page's parse time for the
 * endpoint's playground object). `'`, `&` and `<` occur only inside JSON strings, where `\\u` escapes mean the same.
 */
export const jsonAttr = (value: unknown): string =>
  `'${JSON.stringify(value).replace(/[&'<]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`

/** Inline code that holds any text: a fence of more backticks than the text has in a row. */
export function code(text: string): string {
  const single = text.replace(/\n/g, ' ')
  const longest = Math.max(0, ...[...single.matchAll(/`+/g)].map((match) => match[0].length))
  const ticks = '`'.repeat(longest + 1)
  const pad = single.startsWith('`') || single.endsWith('`') ? ' ' : ''
  return `${ticks}${pad}${single}${pad}${ticks}`
}

function fence(language: string, title: string, source: string): string {
  // A closing fence may be indented up to three spaces: a sample's own fence lines must not end ours.
  const longest = Math.max(2, ...[...source.matchAll(/^ {0,3}(`{3,})/gm)].map((match) => match[1]!.length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${language.replace(/\s/g, '') || 'text'} ${title.replace(/[\n{}]/g, ' ')}\n${source}\n${ticks}`
}

/**
 * A spec's Markdown made safe for MDX: outside code, `{`, `}` and `<` are escaped, so an expression or
 * a tag in a description is shown as text, never evaluated or parsed as JSX. Headings are demoted below
 * the page's own sections.
 */
export function markdown(text: string): string {
  const out: string[] = []
  let fenceMarker: string | undefined
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fenceMarker) {
      out.push(line)
      if (opening && opening[1]!.startsWith(fenceMarker)) fenceMarker = undefined
      continue
    }
    if (opening) {
      fenceMarker = opening[1]!
      out.push(line)
      continue
    }
    out.push(escapeInline(line).replace(/^(#{1,3})(\s)/, '####$2'))
  }
  if (fenceMarker) out.push(fenceMarker)
  return out.join('\n').trim()
}

function escapeInline(line: string): string {
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, index) => (index % 2 === 1 ? part : escapeMdx(part)))
    .join('')
}

/** `{`, `}` and `<` escaped unless a backslash already escapes them. */
const escapeMdx = (text: string): string =>
  text.replace(/(\\*)([{}<])/g, (_, slashes: string, char: string) =>
    slashes.length % 2 === 0 ? `${slashes}\\${char}` : `${slashes}${char}`,
  )

/** An AsyncAPI channel page: its address and servers, description, and each message's payload as a tree. */
export function channelBody(channel: ApiChannel, settings: ApiPageSettings): string {
  const props = [`method="channel"`, `path=${attr(channel.address)}`]
  if (channel.servers.length > 0)
    props.push(`servers=${jsonAttr(channel.servers.map((server) => server.url))}`)
  const parts = [jsxTag('ApiEndpoint', props)]
  const examples = channel.messages.flatMap((message) => {
    const example = message.example !== undefined ? message.example : exampleOf(message.payload)
    return example === undefined ? [] : [fence('json', message.name, JSON.stringify(example, null, 2))]
  })
  if (examples.length > 0) parts.push(`<ResponseExample>\n\n${examples.join('\n\n')}\n\n</ResponseExample>`)
  if (channel.description) parts.push(markdown(channel.description))
  if (channel.messages.length > 0) parts.push('## Messages')
  for (const message of channel.messages) {
    parts.push(`### ${message.title ?? message.name}`)
    const facts = [
      message.action ? `Action: ${code(message.action)}` : '',
      message.contentType ? `Content type: ${code(message.contentType)}` : '',
    ].filter(Boolean)
    if (facts.length > 0) parts.push(facts.join(' · '))
    if (message.summary) parts.push(markdown(message.summary))
    if (message.description) parts.push(markdown(message.description))
    if (message.payload) parts.push(responseFields({ contentType: '', schema: message.payload }, settings))
  }
  return `${parts.join('\n\n')}\n`
}
