/**
 * Visibility: `for="agents"` content appears only in the page's Markdown export (for LLMs);
 * `for="humans"` content only in the HTML. Anything else renders everywhere.
 */
import { h } from './html.js'
import type { Component } from './types.js'

export const Visibility: Component = (context) =>
  context.props.for === 'agents' ? [] : h('div', { className: ['d-visibility'] }, context.render())
