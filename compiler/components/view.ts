/** View: content for one of several views of a page (`title` names it); the shell may offer a switch. */
import { h, str } from './html.js'
import type { Component } from './types.js'

export const View: Component = (context) =>
  h('div', { className: ['d-view'], dataView: str(context.props.title) }, context.render())
