/**
 * CodeGroup: fenced blocks as tabs. Label priority: the fence's `title`, then its language, then `Tab <n>`.
 * The blocks arrive already highlighted (`div.d-code` with data-title / data-language).
 */
import type { Element, ElementContent } from 'hast'
import { h, isBlank } from './html.js'
import { tablist } from './tablist.js'
import type { Component } from './types.js'

export const CodeGroup: Component = (context) => {
  const blocks = context.render().filter((node) => !isBlank(node))
  const tabs = blocks.map((block, index) => {
    const code = findCode(block)
    const label = String(code?.properties.dataTitle ?? code?.properties.dataLanguage ?? `Tab ${index + 1}`)
    return { label, content: [block] }
  })
  if (tabs.length === 0) return h('div', { className: ['d-code-group'] })
  return tablist(context.nextId('code-group'), 'd-code-group', tabs, 0)
}

function findCode(node: ElementContent): Element | undefined {
  if (node.type !== 'element') return undefined
  const classes = node.properties.className
  if (Array.isArray(classes) && classes.includes('d-code')) return node
  for (const child of node.children) {
    const found = findCode(child)
    if (found) return found
  }
  return undefined
}
