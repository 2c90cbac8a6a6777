/**
 * RequestExample and ResponseExample: code blocks shown as tabs in a panel that sits beside the page's
 * content on wide screens (on narrow ones, where it is written). Generated operation pages use them; so
 * may any page.
 */
import { CodeGroup } from './code-group.js'
import { h } from './html.js'
import type { Component } from './types.js'

const examplePanel =
  (kind: 'request' | 'response', label: string): Component =>
  (context) =>
    h('div', { className: ['d-api-example', `d-${kind}-example`] }, [
      h('div', { className: ['d-api-example-label'] }, [label]),
      ...[CodeGroup(context)].flat(),
    ])

export const RequestExample: Component = examplePanel('request', 'Request')
export const ResponseExample: Component = examplePanel('response', 'Response')
