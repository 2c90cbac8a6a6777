/**
 * The channels of a dereferenced AsyncAPI document (2.x `channels` with `publish`/`subscribe`, 3.x
 * `channels` with `messages` and `operations` that `send`/`receive` on them), in one shape for pages.
 */
import type { SpecDocument } from './load.js'
import type { ApiServer, Schema } from './operations.js'

export interface ApiMessage {
  name: string
  /** `publish`/`subscribe` (2.x) or `send`/`receive` (3.x), when an operation says. */
  action?: string
  title?: string
  summary?: string
  description?: string
  contentType?: string
  payload?: Schema
  example?: unknown
}

export interface ApiChannel {
  /** The key under `channels`: what `asyncapi: "…"` front matter and the page's title name. */
  name: string
  address: string
  title?: string
  description?: string
  messages: ApiMessage[]
  servers: ApiServer[]
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined

export function listChannels(document: SpecDocument): ApiChannel[] {
  const channels = isRecord(document.channels) ? document.channels : {}
  const servers = serversOf(document.servers)
  const actions = actionsByChannel(document)
  return Object.entries(channels).flatMap(([name, channel]) => {
    if (!isRecord(channel)) return []
    const result: ApiChannel = {
      name,
      address: typeof channel.address === 'string' ? channel.address : name,
      messages: [],
      servers,
    }
    const title = text(channel.title)
    if (title) result.title = title
    const description = text(channel.description)
    if (description) result.description = description
    // 2.x: an operation per direction, each with one message or `oneOf` several.
    for (const action of ['publish', 'subscribe'] as const) {
      const operation = channel[action]
      if (!isRecord(operation)) continue
      const message = operation.message
      const messages = isRecord(message) && Array.isArray(message.oneOf) ? message.oneOf : [message]
      for (const entry of messages)
        if (isRecord(entry)) result.messages.push(messageOf(entry, action, operation))
    }
    // 3.x: messages on the channel, and the action of the operations that use it.
    if (isRecord(channel.messages))
      for (const [key, entry] of Object.entries(channel.messages))
        if (isRecord(entry)) result.messages.push(messageOf(entry, actions.get(channel), undefined, key))
    return [result]
  })
}

function messageOf(
  message: Record<string, unknown>,
  action: string | undefined,
  operation: Record<string, unknown> | undefined,
  key?: string,
): ApiMessage {
  const entry: ApiMessage = { name: text(message.name) ?? key ?? text(operation?.operationId) ?? 'message' }
  if (action) entry.action = action
  for (const field of ['title', 'summary', 'description', 'contentType'] as const) {
    const value = text(message[field]) ?? (field === 'summary' ? text(operation?.summary) : undefined)
    if (value) entry[field] = value
  }
  if (isRecord(message.payload)) entry.payload = message.payload
  const examples = Array.isArray(message.examples) ? message.examples : []
  const first = examples[0]
  if (isRecord(first) && first.payload !== undefined) entry.example = first.payload
  return entry
}

/** 3.x: the action (`send`/`receive`) of the operation on each channel, by the channel object. */
function actionsByChannel(document: SpecDocument): Map<unknown, string> {
  const actions = new Map<unknown, string>()
  if (!isRecord(document.operations)) return actions
  for (const operation of Object.values(document.operations))
    if (isRecord(operation) && typeof operation.action === 'string')
      actions.set(operation.channel, operation.action)
  return actions
}

function serversOf(value: unknown): ApiServer[] {
  if (!isRecord(value)) return []
  return Object.values(value).flatMap((server) => {
    if (!isRecord(server)) return []
    const protocol = typeof server.protocol === 'string' ? server.protocol : undefined
    const url =
      typeof server.url === 'string'
        ? server.url
        : typeof server.host === 'string'
          ? `${protocol ? `${protocol}://` : ''}${server.host}${typeof server.pathname === 'string' ? server.pathname : ''}`
          : undefined
    if (!url) return []
    const entry: ApiServer = { url: protocol && !url.includes('://') ? `${protocol}://${url}` : url }
    const description = text(server.description)
    if (description) entry.description = description
    return [entry]
  })
}
