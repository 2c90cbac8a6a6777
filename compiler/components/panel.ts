/** Panel: content set beside the page's text (a side note); in the static page, an aside block. */
import { h } from './html.js'
import type { Component } from './types.js'

export const Panel: Component = (context) => h('aside', { className: ['d-panel'] }, context.render())
