/** Frame: a bordered figure; `hint` above, `caption` below as the figcaption (both inline Markdown). */
import { h, str } from './html.js'
import { inlineMarkdown } from './inline-markdown.js'
import type { Component } from './types.js'

export const Frame: Component = (context) => {
  const hint = str(context.props.hint)
  const caption = str(context.props.caption)
  return h('figure', { className: ['d-frame'] }, [
    hint && h('p', { className: ['d-frame-hint'] }, inlineMarkdown(hint)),
    h('div', { className: ['d-frame-body'] }, context.render()),
    caption && h('figcaption', { className: ['d-frame-caption'] }, inlineMarkdown(caption)),
  ])
}
