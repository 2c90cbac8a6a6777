/** Expandable: nested fields behind a `<details>` labelled "Show <title>" (title defaults to "properties"). */
import { bool, h, str } from './html.js'
import type { Component } from './types.js'

export const Expandable: Component = (context) => {
  const title = str(context.props.title) ?? 'properties'
  return h('details', { className: ['d-expandable'], open: bool(context.props.defaultOpen) }, [
    h('summary', { className: ['d-expandable-summary'] }, [
      h('span', { className: ['d-expandable-show'] }, ['Show ']),
      h('span', { className: ['d-expandable-hide'] }, ['Hide ']),
      title,
    ]),
    h('div', { className: ['d-expandable-body'] }, context.render()),
  ])
}
