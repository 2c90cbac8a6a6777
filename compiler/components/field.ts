/**
 * ParamField and ResponseField: an API field with its name, type, badges and description.
 * ParamField names the field by where it goes: `query`, `path`, `body`, `header` or `cookie` (`name` also works).
 */

import type { StaticObject } from '../content/static-value.js'
import { anchorAlias, fieldSlug } from '../platform-ids.js'
import { bool, h, str } from './html.js'
import type { Component, ComponentContext } from './types.js'

const LOCATIONS = ['query', 'path', 'body', 'header', 'cookie'] as const

function renderField(context: ComponentContext, kind: 'param' | 'response', name: string, location?: string) {
  const { props } = context
  const type = str(props.type)
  const fallback = str(props.default)
  // The platform names an authored field `param-<name>` (generated pages pass theirs as `id`); the id
  // earlier builds used stays as an alias.
  const earlier = context.slug(`${kind}-${name}`)
  const id = context.uniqueId(str(props.id) ?? fieldSlug('param', name))
  return h('div', { className: ['d-field', `d-${kind}-field`], id }, [
    earlier !== id && anchorAlias(earlier),
    h('div', { className: ['d-field-header'] }, [
      h('a', { className: ['d-field-name'], href: `#${id}` }, [h('code', {}, [name])]),
      location && h('span', { className: ['d-field-location'] }, [location]),
      type && h('span', { className: ['d-field-type'] }, [type]),
      bool(props.required) && h('span', { className: ['d-badge', 'd-badge-required'] }, ['required']),
      bool(props.deprecated) && h('span', { className: ['d-badge', 'd-badge-deprecated'] }, ['deprecated']),
      fallback !== undefined &&
        h('span', { className: ['d-field-default'] }, ['default: ', h('code', {}, [fallback])]),
    ]),
    h('div', { className: ['d-field-body'] }, context.render()),
  ])
}

const locationOf = (props: StaticObject): [string, string] | undefined => {
  for (const location of LOCATIONS) {
    const name = str(props[location])
    if (name !== undefined) return [location, name]
  }
  return undefined
}

export const ParamField: Component = (context) => {
  const found = locationOf(context.props)
  const name = found?.[1] ?? str(context.props.name) ?? ''
  if (!name)
    context.warn(
      'missing-prop',
      'Unexpected <ParamField> without a name, expected query, path, body, header or cookie="name"',
    )
  return renderField(context, 'param', name, found?.[0])
}

export const ResponseField: Component = (context) => {
  const name = str(context.props.name) ?? ''
  if (!name) context.warn('missing-prop', 'Unexpected <ResponseField> without a name, expected name="…"')
  return renderField(context, 'response', name)
}
