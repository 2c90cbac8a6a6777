/** Update: one changelog entry; the `label` is an h2 (so entries fill the table of contents), `tags` as badges. */
import { h, str } from './html.js'
import { propContent } from './markup.js'
import type { Component } from './types.js'

export const Update: Component = (context) => {
  const label = propContent(context.props.label)
  const description = propContent(context.props.description)
  const tags = Array.isArray(context.props.tags) ? context.props.tags.flatMap((tag) => str(tag) ?? []) : []
  return h('section', { className: ['d-update'] }, [
    h('div', { className: ['d-update-meta'] }, [
      label && h('h2', { className: ['d-update-label'] }, label),
      description && h('p', { className: ['d-update-description'] }, description),
      tags.length > 0 &&
        h(
          'p',
          { className: ['d-update-tags'] },
          tags.map((tag) => h('span', { className: ['d-badge', 'd-badge-gray'] }, [tag])),
        ),
    ]),
    h('div', { className: ['d-update-body'] }, context.render()),
  ])
}
