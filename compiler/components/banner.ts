/** Banner: a notice across the content (the site-wide banner lives in docs.json; this one is in a page). */
import { h } from './html.js'
import type { Component } from './types.js'

export const Banner: Component = (context) =>
  h('div', { className: ['d-banner-inline'], role: 'note' }, context.render())
