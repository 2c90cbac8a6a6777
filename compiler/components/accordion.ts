/** Accordion: a `<details>` that opens without JavaScript; `id` defaults to the slugified title. */
import { bool, h, str } from './html.js'
import { propContent, propText } from './markup.js'
import type { Component } from './types.js'

export const Accordion: Component = (context) => {
  const { props } = context
  const title = propContent(props.title)
  if (!title) context.warn('missing-prop', 'Unexpected <Accordion> without a title, expected title="…"')
  const description = propContent(props.description)
  const icon = props.icon !== undefined ? context.icon(props.icon, props.iconType) : undefined
  return h(
    'details',
    {
      className: ['d-accordion'],
      id: context.slug(str(props.id) ?? propText(props.title) ?? ''),
      open: bool(props.defaultOpen),
    },
    [
      h('summary', { className: ['d-accordion-summary'] }, [
        icon && h('span', { className: ['d-accordion-icon'] }, [icon]),
        h('span', { className: ['d-accordion-heading'] }, [
          h('span', { className: ['d-accordion-title'] }, title ?? []),
          description && h('span', { className: ['d-accordion-description'] }, description),
        ]),
      ]),
      h('div', { className: ['d-accordion-body'] }, context.render()),
    ],
  )
}
