/** Tile: a preview (its children, usually an image) over a title and description; a link with `href`. */
import { h, isExternalUrl, str } from './html.js'
import { inlineMarkdown } from './inline-markdown.js'
import { propContent } from './markup.js'
import type { Component } from './types.js'

export const Tile: Component = (context) => {
  const title = propContent(context.props.title)
  const description = str(context.props.description)
  const href = str(context.props.href)
  const children = [
    h('div', { className: ['d-tile-preview'] }, context.render()),
    title && h('p', { className: ['d-tile-title'] }, title),
    description && h('p', { className: ['d-tile-description'] }, inlineMarkdown(description)),
  ]
  if (!href) return h('div', { className: ['d-tile'] }, children)
  const external = isExternalUrl(href) ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}
  return h('a', { className: ['d-tile', 'd-tile-link'], href, ...external }, children)
}
