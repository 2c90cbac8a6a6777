/**
 * rehype plugin: GFM task-list checkboxes get an accessible name (the item's text), since a bare
 * `<input type="checkbox">` has no label and screen readers would announce just "checkbox".
 */
import type { Element, Root } from 'hast'
import { toString as textContent } from 'mdast-util-to-string'
import { walkElements } from './walk-elements.js'

export default function rehypeTaskLists() {
  return (tree: Root): void => {
    walkElements(tree, (item: Element) => {
      const classes = item.properties.className
      if (item.tagName !== 'li' || !Array.isArray(classes) || !classes.includes('task-list-item'))
        return undefined
      const checkbox = item.children.find(
        (child): child is Element => child.type === 'element' && child.tagName === 'input',
      )
      if (!checkbox) return undefined
      const label = textContent(item as never).trim()
      checkbox.properties.ariaLabel = `${checkbox.properties.checked ? 'Done' : 'To do'}: ${label}`
      return undefined
    })
  }
}
