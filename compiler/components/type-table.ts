/**
 * TypeTable: `type` is an object of field name → {description, type, required, optional, default}.
 * `required` defaults to the inverse of `optional`; the Default column appears only when a field has one.
 */
import type { StaticObject, StaticValue } from '../content/static-value.js'
import { bool, h, str } from './html.js'
import type { Component } from './types.js'

const isObject = (value: StaticValue): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const TypeTable: Component = (context) => {
  const type = context.props.type
  if (!isObject(type)) {
    context.warn(
      'missing-prop',
      'Unexpected <TypeTable> without a `type` object, expected type={{ field: { type: "string" } }}',
    )
    return []
  }
  const fields = Object.entries(type).map(([name, spec]) => ({ name, spec: isObject(spec) ? spec : {} }))
  const withDefault = fields.some(({ spec }) => str(spec.default) !== undefined)
  const header = ['Field', 'Type', 'Description', ...(withDefault ? ['Default'] : [])]
  return h('div', { className: ['d-type-table'] }, [
    h('table', {}, [
      h('thead', {}, [
        h(
          'tr',
          {},
          header.map((label) => h('th', { scope: 'col' }, [label])),
        ),
      ]),
      h(
        'tbody',
        {},
        fields.map(({ name, spec }) => {
          const required = spec.required !== undefined ? bool(spec.required) : !bool(spec.optional, true)
          const fallback = str(spec.default)
          return h('tr', {}, [
            h('td', {}, [
              h('code', { className: ['d-field-name'] }, [name]),
              required && h('span', { className: ['d-badge', 'd-badge-required'] }, ['required']),
            ]),
            h('td', {}, [
              str(spec.type) ? h('code', { className: ['d-field-type'] }, [str(spec.type) ?? '']) : undefined,
            ]),
            h('td', {}, [str(spec.description) ?? '']),
            withDefault && h('td', {}, [fallback !== undefined ? h('code', {}, [fallback]) : undefined]),
          ])
        }),
      ),
    ]),
  ])
}
