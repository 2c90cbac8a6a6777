/** Icon: an icon by name inline in text; `color` and `size` (px) style it. */
import { h, num, safeColor } from './html.js'
import type { Component } from './types.js'

export const Icon: Component = (context) => {
  const icon = context.icon(context.props.icon, context.props.iconType)
  if (!icon) return []
  const color = safeColor(context.props.color)
  const size = num(context.props.size)
  const style = [color && `color: ${color}`, size && `--d-icon-size: ${size}px`].filter(Boolean).join('; ')
  return h('span', { className: ['d-icon'], style: style || undefined }, [icon])
}
