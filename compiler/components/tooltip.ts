/**
 * Tooltip: the text with a tip shown on hover and focus (CSS only), and the tip also in `title`-free
 * markup a screen reader reads through aria-describedby. The tip is inline Markdown.
 */
import { h, str } from './html.js'
import { inlineMarkdown } from './inline-markdown.js'
import type { Component } from './types.js'

export const Tooltip: Component = (context) => {
  const tip = str(context.props.tip) ?? ''
  const headline = str(context.props.headline)
  const id = context.nextId('tooltip')
  return h('span', { className: ['d-tooltip'], tabIndex: 0, ariaDescribedBy: [id] }, [
    ...context.render(),
    h('span', { className: ['d-tooltip-tip'], role: 'tooltip', id }, [
      headline && h('strong', { className: ['d-tooltip-headline'] }, [headline]),
      headline ? ' ' : undefined,
      ...inlineMarkdown(tip),
    ]),
  ])
}
