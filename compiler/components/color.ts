/**
 * Color: a palette. `<Color.Item name="blue-500" value="#3B82F6" />` is one swatch (its value, when a
 * safe colour, paints it); `<Color.Row title="Blue">` groups swatches; `<Color>` holds them.
 */
import { h, safeColor, str } from './html.js'
import type { Component } from './types.js'

export const Color: Component = (context) => {
  const variant = str(context.props.variant) === 'table' ? 'table' : 'compact'
  return h('div', { className: ['d-color', `d-color-${variant}`] }, context.render())
}

export const ColorRow: Component = (context) => {
  const title = str(context.props.title)
  return h('div', { className: ['d-color-row'] }, [
    title && h('p', { className: ['d-color-row-title'] }, [title]),
    h('div', { className: ['d-color-items'] }, context.render()),
  ])
}

export const ColorItem: Component = (context) => {
  const name = str(context.props.name)
  const value = typeof context.props.value === 'string' ? context.props.value : undefined
  const color = safeColor(value)
  return h('div', { className: ['d-color-item'] }, [
    h('span', { className: ['d-color-swatch'], style: color ? `background: ${color}` : undefined }),
    name && h('span', { className: ['d-color-name'] }, [name]),
    value && h('code', { className: ['d-color-value'] }, [value]),
  ])
}
