/**
 * ApiEndpoint: an operation's method and path (path parameters highlighted), its servers, and, with a
 * `playground` description, the place where the API-page script builds its "Try it" form. Generated
 * operation pages start with one; a hand-written page gets one from its `api:` front matter.
 */
import type { ElementContent } from 'hast'
import type { StaticValue } from '../content/static-value.js'
import { bool, h, str } from './html.js'
import type { Component } from './types.js'

export const ApiEndpoint: Component = (context) => {
  const method = (str(context.props.method) ?? 'GET').toUpperCase()
  const path = str(context.props.path) ?? '/'
  const servers = stringList(jsonProp(context.props.servers))
  const playground = jsonProp(context.props.playground)
  return h('div', { className: ['d-api-endpoint'], dataMethod: method.toLowerCase() }, [
    h('div', { className: ['d-api-endpoint-line'] }, [
      methodBadge(method),
      h('code', { className: ['d-api-path'] }, pathParts(path)),
      bool(context.props.deprecated) &&
        h('span', { className: ['d-badge', 'd-badge-deprecated'] }, ['deprecated']),
    ]),
    servers.length > 0 &&
      h('div', { className: ['d-api-servers'] }, [
        h('span', { className: ['d-api-servers-label'] }, [servers.length > 1 ? 'Servers' : 'Server']),
        h(
          'ul',
          {},
          servers.map((server) => h('li', {}, [h('code', {}, [server])])),
        ),
      ]),
    playground !== null &&
      typeof playground === 'object' &&
      !Array.isArray(playground) &&
      h('div', {
        className: ['d-try-it'],
        dataPlayground: JSON.stringify({ ...(playground as object), method, path, servers }),
      }),
  ])
}

/** ApiSchema: the name and type of a component schema, atop an `openapi-schema:` page. */
export const ApiSchema: Component = (context) =>
  h('div', { className: ['d-api-endpoint', 'd-api-schema'] }, [
    h('div', { className: ['d-api-endpoint-line'] }, [
      h('code', { className: ['d-api-path'] }, [str(context.props.name) ?? '']),
      h('span', { className: ['d-field-type'] }, [str(context.props.type) ?? 'object']),
    ]),
  ])

export const methodBadge = (method: string) =>
  h('span', { className: ['d-method', `d-method-${method.toLowerCase()}`] }, [method])

function pathParts(path: string): ElementContent[] {
  return path
    .split(/(\{[^}]+\})/)
    .filter((part) => part !== '')
    .map((part) =>
      part.startsWith('{')
        ? h('span', { className: ['d-api-path-param'] }, [part])
        : { type: 'text', value: part },
    )
}

/** Generated pages pass arrays and objects as JSON strings (faster to parse than expressions); authors may write either. */
function jsonProp(value: StaticValue): unknown {
  if (typeof value !== 'string' || !/^[[{]/.test(value)) return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return undefined
  }
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : typeof value === 'string'
      ? [value]
      : []
