/** PreviewButton: a link styled as a button (`href`), its children the label. */
import { h, isExternalUrl, str } from './html.js'
import type { Component } from './types.js'

export const PreviewButton: Component = (context) => {
  const href = str(context.props.href)
  if (!href) return h('span', { className: ['d-preview-button'] }, context.render())
  const external = isExternalUrl(href) ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}
  return h('a', { className: ['d-preview-button'], href, ...external }, context.render())
}
