/**
 * Card: a link when it has `href` (external links open in a new tab with rel="noopener noreferrer"),
 * else a box. When the content has links of its own the card cannot be one `<a>` (links do not nest),
 * so only its title becomes the link.
 */
import type { ElementContent } from 'hast'
import { bool, h, isExternalUrl, safeColor, str } from './html.js'
import { propContent } from './markup.js'
import type { Component } from './types.js'

export const Card: Component = (context) => {
  const { props } = context
  const title = propContent(props.title)
  const href = str(props.href)
  const img = str(props.img)
  const cta = str(props.cta)
  const color = safeColor(props.color)
  const icon = props.icon !== undefined ? context.icon(props.icon, props.iconType) : undefined
  const body = context.render()
  const external = href !== undefined && isExternalUrl(href)
  const linkProperties = href
    ? { href, ...(external ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}) }
    : {}
  const nested = href !== undefined && containsLink(body)
  const titleNode = title
    ? h('p', { className: ['d-card-title'] }, [
        nested ? h('a', { ...linkProperties, className: ['d-card-link'] }, title) : undefined,
        ...(nested ? [] : title),
      ])
    : undefined
  const className = [
    'd-card',
    ...(bool(props.horizontal) ? ['d-card-horizontal'] : []),
    ...(href ? ['d-card-interactive'] : []),
  ]
  const children = [
    img && h('img', { className: ['d-card-img'], src: img, alt: '' }),
    icon && h('span', { className: ['d-card-icon'], style: color ? `color: ${color}` : undefined }, [icon]),
    h('div', { className: ['d-card-content'] }, [
      titleNode,
      body.length > 0 && h('div', { className: ['d-card-body'] }, body),
      cta && h('span', { className: ['d-card-cta'] }, [cta]),
    ]),
  ]
  if (href && !nested) return h('a', { ...linkProperties, className }, children)
  return h('div', { className }, children)
}

function containsLink(nodes: readonly ElementContent[]): boolean {
  return nodes.some(
    (node) => node.type === 'element' && (node.tagName === 'a' || containsLink(node.children)),
  )
}
