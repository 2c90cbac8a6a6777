/** AccordionGroup: its Accordions in one bordered container with dividers (the CSS draws them). */
import { h } from './html.js'
import type { Component } from './types.js'

export const AccordionGroup: Component = (context) =>
  h('div', { className: ['d-accordion-group'] }, context.render())
