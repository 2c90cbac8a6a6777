/**
 * The operations of a dereferenced document in one shape for OpenAPI 3.0, 3.1 and Swagger 2.0:
 * path-level parameters merged into each operation, Swagger's `body`/`formData` parameters turned into a
 * request body, `host`/`basePath`/`schemes` into servers, and security requirements joined to their schemes.
 */
import type { SpecDocument } from './load.js'

export type Schema = Record<string, unknown>

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface ApiParameter {
  name: string
  location: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  deprecated: boolean
  description?: string
  schema?: Schema
  example?: unknown
}

export interface ApiContent {
  contentType: string
  schema?: Schema
  example?: unknown
}

export interface ApiRequestBody {
  required: boolean
  description?: string
  contents: ApiContent[]
}

export interface ApiResponse {
  status: string
  description?: string
  contents: ApiContent[]
}

export interface ApiServer {
  url: string
  description?: string
}

/** One way to authenticate: every scheme of one requirement object applies together. */
export interface ApiSecurityScheme {
  name: string
  type: string
  /** `header`, `query` or `cookie` for API keys. */
  location?: string
  /** Header, query or cookie name for API keys. */
  parameter?: string
  /** `bearer`, `basic`… for `http` schemes. */
  scheme?: string
  description?: string
  scopes: string[]
}

export interface ApiCodeSample {
  lang: string
  label?: string
  source: string
}

export interface ApiOperation {
  method: string
  path: string
  /** `webhook` operations have a name instead of a path. */
  webhook: boolean
  summary?: string
  description?: string
  operationId?: string
  tags: string[]
  deprecated: boolean
  parameters: ApiParameter[]
  requestBody?: ApiRequestBody
  responses: ApiResponse[]
  servers: ApiServer[]
  security: ApiSecurityScheme[][]
  codeSamples: ApiCodeSample[]
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined

export function listOperations(document: SpecDocument): ApiOperation[] {
  const operations: ApiOperation[] = []
  const swagger = typeof document.swagger === 'string'
  const rootServers = swagger ? swaggerServers(document) : servers(document.servers)
  const collect = (items: unknown, webhook: boolean) => {
    if (!isRecord(items)) return
    for (const [path, item] of Object.entries(items)) {
      if (!isRecord(item)) continue
      const itemServers = servers(item.servers)
      for (const method of HTTP_METHODS) {
        const operation = item[method]
        if (!isRecord(operation)) continue
        const opServers = servers(operation.servers)
        operations.push(
          operationOf(document, swagger, {
            method,
            path,
            webhook,
            item,
            operation,
            servers: opServers.length > 0 ? opServers : itemServers.length > 0 ? itemServers : rootServers,
          }),
        )
      }
    }
  }
  collect(document.paths, false)
  collect(document.webhooks, true)
  return operations
}

/** `GET /pets` (and `webhook name`) as written in docs.json and front matter. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`

function operationOf(
  document: SpecDocument,
  swagger: boolean,
  found: {
    method: string
    path: string
    webhook: boolean
    item: Record<string, unknown>
    operation: Record<string, unknown>
    servers: ApiServer[]
  },
): ApiOperation {
  const { operation } = found
  // Operation-level parameters override path-level ones with the same name and location.
  const byKey = new Map<string, Record<string, unknown>>()
  for (const parameter of [...asArray(found.item.parameters), ...asArray(operation.parameters)])
    if (isRecord(parameter)) byKey.set(`${String(parameter.in)} ${String(parameter.name)}`, parameter)
  const raw = [...byKey.values()]
  const parameters: ApiParameter[] = []
  for (const parameter of raw) {
    const location = parameter.in
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie')
      continue
    const entry: ApiParameter = {
      name: String(parameter.name ?? ''),
      location,
      required: parameter.required === true || location === 'path',
      deprecated: parameter.deprecated === true,
    }
    const description = text(parameter.description)
    if (description) entry.description = description
    const schema = swagger ? swaggerParameterSchema(parameter) : parameterSchema(parameter)
    if (schema) entry.schema = schema
    if (parameter.example !== undefined) entry.example = parameter.example
    parameters.push(entry)
  }
  const result: ApiOperation = {
    method: found.method,
    path: found.path,
    webhook: found.webhook,
    tags: asArray(operation.tags).filter((tag): tag is string => typeof tag === 'string'),
    deprecated: operation.deprecated === true,
    parameters,
    responses: responsesOf(operation.responses, swagger ? producesOf(document, operation) : undefined),
    servers: found.servers,
    security: securityOf(document, operation.security ?? document.security, swagger),
    codeSamples: codeSamplesOf(operation),
  }
  const summary = text(operation.summary)
  if (summary) result.summary = summary
  const description = text(operation.description)
  if (description) result.description = description
  const operationId = text(operation.operationId)
  if (operationId) result.operationId = operationId
  const body = swagger ? swaggerBody(document, operation, raw) : requestBodyOf(operation.requestBody)
  if (body) result.requestBody = body
  return result
}

function parameterSchema(parameter: Record<string, unknown>): Schema | undefined {
  if (isRecord(parameter.schema)) return parameter.schema
  if (isRecord(parameter.content)) {
    const first = Object.values(parameter.content)[0]
    if (isRecord(first) && isRecord(first.schema)) return first.schema
  }
  return undefined
}

/** Swagger 2.0 writes a parameter's schema keywords on the parameter itself. */
function swaggerParameterSchema(parameter: Record<string, unknown>): Schema | undefined {
  if (isRecord(parameter.schema)) return parameter.schema
  const schema: Schema = {}
  for (const key of [
    'type',
    'format',
    'items',
    'enum',
    'default',
    'minimum',
    'maximum',
    'pattern',
    'minLength',
    'maxLength',
  ])
    if (parameter[key] !== undefined) schema[key] = parameter[key]
  return Object.keys(schema).length > 0 ? schema : undefined
}

function contentsOf(content: unknown): ApiContent[] {
  if (!isRecord(content)) return []
  return Object.entries(content).map(([contentType, media]) => {
    const entry: ApiContent = { contentType }
    if (isRecord(media)) {
      if (isRecord(media.schema)) entry.schema = media.schema
      if (media.example !== undefined) entry.example = media.example
      else if (isRecord(media.examples)) {
        const first = Object.values(media.examples)[0]
        if (isRecord(first) && first.value !== undefined) entry.example = first.value
      }
    }
    return entry
  })
}

function requestBodyOf(body: unknown): ApiRequestBody | undefined {
  if (!isRecord(body)) return undefined
  const result: ApiRequestBody = { required: body.required === true, contents: contentsOf(body.content) }
  const description = text(body.description)
  if (description) result.description = description
  return result
}

function responsesOf(responses: unknown, produces: string[] | undefined): ApiResponse[] {
  if (!isRecord(responses)) return []
  return Object.entries(responses)
    .filter(([status]) => !status.startsWith('x-'))
    .map(([status, response]) => {
      const entry: ApiResponse = { status, contents: [] }
      if (!isRecord(response)) return entry
      const description = text(response.description)
      if (description) entry.description = description
      if (produces) {
        // Swagger 2.0: one schema for every type the operation produces.
        if (isRecord(response.schema)) {
          const examples = isRecord(response.examples) ? response.examples : {}
          entry.contents = produces.map((contentType) => {
            const content: ApiContent = { contentType, schema: response.schema as Schema }
            if (examples[contentType] !== undefined) content.example = examples[contentType]
            return content
          })
        }
      } else entry.contents = contentsOf(response.content)
      return entry
    })
}

function servers(value: unknown): ApiServer[] {
  return asArray(value).flatMap((server) => {
    if (!isRecord(server) || typeof server.url !== 'string') return []
    // Server variables take their defaults: the page shows the URL a reader can call.
    const variables = isRecord(server.variables) ? server.variables : {}
    const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name]
      return isRecord(variable) && variable.default !== undefined ? String(variable.default) : whole
    })
    const entry: ApiServer = { url }
    const description = text(server.description)
    if (description) entry.description = description
    return [entry]
  })
}

function swaggerServers(document: SpecDocument): ApiServer[] {
  if (typeof document.host !== 'string') return []
  const schemes = asArray(document.schemes).filter((scheme): scheme is string => typeof scheme === 'string')
  const basePath = typeof document.basePath === 'string' ? document.basePath.replace(/\/$/, '') : ''
  return (schemes.length > 0 ? schemes : ['https']).map((scheme) => ({
    url: `${scheme}://${document.host as string}${basePath}`,
  }))
}

const producesOf = (document: SpecDocument, operation: Record<string, unknown>): string[] => {
  const produces = asArray(operation.produces ?? document.produces).filter(
    (t): t is string => typeof t === 'string',
  )
  return produces.length > 0 ? produces : ['application/json']
}

function swaggerBody(
  document: SpecDocument,
  operation: Record<string, unknown>,
  parameters: Record<string, unknown>[],
): ApiRequestBody | undefined {
  const consumes = asArray(operation.consumes ?? document.consumes).filter(
    (t): t is string => typeof t === 'string',
  )
  const body = parameters.find((parameter) => parameter.in === 'body')
  if (body) {
    const result: ApiRequestBody = {
      required: body.required === true,
      contents: (consumes.length > 0 ? consumes : ['application/json']).map((contentType) => {
        const content: ApiContent = { contentType }
        if (isRecord(body.schema)) content.schema = body.schema
        return content
      }),
    }
    const description = text(body.description)
    if (description) result.description = description
    return result
  }
  const form = parameters.filter((parameter) => parameter.in === 'formData')
  if (form.length === 0) return undefined
  const properties: Record<string, Schema> = {}
  const required: string[] = []
  for (const field of form) {
    const name = String(field.name ?? '')
    const schema = swaggerParameterSchema(field) ?? {}
    if (field.type === 'file') schema.format = 'binary'
    if (field.type === 'file') schema.type = 'string'
    if (typeof field.description === 'string') schema.description = field.description
    properties[name] = schema
    if (field.required === true) required.push(name)
  }
  const contentType = consumes.find((type) => type.includes('form')) ?? 'application/x-www-form-urlencoded'
  return {
    required: required.length > 0,
    contents: [{ contentType, schema: { type: 'object', properties, required } }],
  }
}

function securityOf(document: SpecDocument, requirements: unknown, swagger: boolean): ApiSecurityScheme[][] {
  const components = isRecord(document.components) ? document.components : {}
  const schemes = swagger ? document.securityDefinitions : components.securitySchemes
  const known = isRecord(schemes) ? schemes : {}
  return asArray(requirements).flatMap((requirement) => {
    if (!isRecord(requirement)) return []
    const option: ApiSecurityScheme[] = []
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = known[name]
      if (!isRecord(scheme)) continue
      const entry: ApiSecurityScheme = {
        name,
        type: String(scheme.type ?? ''),
        scopes: asArray(scopes).filter((scope): scope is string => typeof scope === 'string'),
      }
      if (swagger && scheme.type === 'basic') {
        entry.type = 'http'
        entry.scheme = 'basic'
      }
      if (typeof scheme.in === 'string') entry.location = scheme.in
      if (typeof scheme.name === 'string') entry.parameter = scheme.name
      if (typeof scheme.scheme === 'string') entry.scheme = scheme.scheme.toLowerCase()
      const description = text(scheme.description)
      if (description) entry.description = description
      option.push(entry)
    }
    return option.length > 0 ? [option] : []
  })
}

function codeSamplesOf(operation: Record<string, unknown>): ApiCodeSample[] {
  const samples = operation['x-codeSamples'] ?? operation['x-code-samples'] ?? operation['x-mint']
  const list = isRecord(samples) && Array.isArray(samples.samples) ? samples.samples : asArray(samples)
  return list.flatMap((sample) => {
    if (!isRecord(sample) || typeof sample.source !== 'string') return []
    const entry: ApiCodeSample = {
      lang: typeof sample.lang === 'string' ? sample.lang : 'text',
      source: sample.source,
    }
    if (typeof sample.label === 'string') entry.label = sample.label
    return [entry]
  })
}
