/** Link: a plain link (the hosted platform's `<Link href>`); the link pass makes `href` relative. */
import { h, str } from './html.js'
import type { Component } from './types.js'

export const Link: Component = (context) => h('a', { href: str(context.props.href) }, context.render())
