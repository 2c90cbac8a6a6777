/** Badge: a small inline label; `color` picks a palette class (`d-badge-<color>`). */
import { h, str } from './html.js'
import type { Component } from './types.js'

export const Badge: Component = (context) => {
  const color = str(context.props.color)
  const className = ['d-badge', color && /^[a-z-]+$/.test(color) ? `d-badge-${color}` : 'd-badge-gray']
  return h('span', { className }, context.render())
}
