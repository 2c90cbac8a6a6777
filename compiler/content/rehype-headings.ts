/**
 * rehype plugin: give every heading a stable id (the hosted platform's slug, unique on the page), a
 * "#" anchor link, and collect h2/h3 into the table of contents. Where the github-slugger id earlier
 * builds used differs, an empty element keeps it reachable.
 */
import type { Element, ElementContent, Root } from 'hast'
import { toString as textContent } from 'mdast-util-to-string'
import type { VFile } from 'vfile'
import { anchorAlias, headingSlug, uniqueId } from '../platform-ids.js'
import { walkElements } from './walk-elements.js'

const HEADING = /^h[1-6]$/

export default function rehypeHeadings() {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    walkElements(tree, (node: Element) => {
      if (!HEADING.test(node.tagName)) return
      const classes = node.properties.className
      // remark-rehype's visually hidden "Footnotes" label is not a section of the page.
      if (Array.isArray(classes) && classes.includes('sr-only')) return
      const text = textContent(node as never).trim()
      if (typeof node.properties.id !== 'string') {
        const earlier = page.slugger.slug(text || 'section')
        const id = uniqueId(headingSlug(text) || 'section', page.counters)
        node.properties.id = id
        if (earlier !== id) node.children.unshift(anchorAlias(earlier))
      }
      const id = String(node.properties.id)
      const anchor: ElementContent = {
        type: 'element',
        tagName: 'a',
        properties: { className: ['d-anchor'], href: `#${id}`, ariaHidden: 'true', tabIndex: -1 },
        children: [{ type: 'text', value: '#' }],
      }
      node.children.push(anchor)
      if ((node.tagName === 'h2' || node.tagName === 'h3') && text) {
        page.toc.push({ depth: node.tagName === 'h2' ? 2 : 3, id, text })
      }
    })
  }
}
