/** CardGroup: its Cards in a grid of `cols` columns (default 2). */
import { columnCount } from './columns.js'
import { h } from './html.js'
import type { Component } from './types.js'

export const CardGroup: Component = (context) =>
  h('div', { className: ['d-card-group', `d-cols-${columnCount(context.props.cols, 2)}`] }, context.render())
