import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Element, Root } from 'hast'
import { visit } from 'unist-util-visit'
import { createPageProcessor } from '../../../compiler/content/processor.js'
import { hasElementWithClass, walkElements, walkNodes } from '../../../compiler/content/walk-elements.js'

type Child = Element | string

/** A hast element: `tag` may carry one class after a dot (`li.task-list-item`). */
function h(tag: string, ...rest: [Record<string, string>, Child[] | Child] | [Child[] | Child]): Element {
  const [tagName, className] = tag.split('.')
  const properties: Element['properties'] = rest.length === 2 ? { ...rest[0] } : {}
  if (className) properties.className = [className]
  const content = rest.length === 2 ? rest[1] : rest[0]
  const children = (Array.isArray(content) ? content : [content]).map((child) =>
    typeof child === 'string' ? { type: 'text' as const, value: child } : child,
  )
  return { type: 'element', tagName: tagName!, properties, children }
}

/** A page tree with an MDX JSX element (as remark-rehype passes them through) holding elements. */
function page(): Root {
  const jsx = {
    type: 'mdxJsxFlowElement',
    name: 'Note',
    attributes: [],
    children: [h('p', [h('code.math-inline', 'x^2')])],
  }
  return {
    type: 'root',
    children: [
      h('h2', 'Intro'),
      h('ul', [h('li.task-list-item', [h('input', { type: 'checkbox' }, []), 'Ship']), h('li', 'Plain')]),
      jsx as never,
      h('p', [h('a', { href: '/x' }, 'link'), ' text']),
    ],
  }
}

test('walkElements sees the elements visit() sees, in the same order, children added on the way too', () => {
  const names = (walker: (tree: Root, visitor: (node: Element) => undefined) => void): string[] => {
    const seen: string[] = []
    walker(page(), (node) => {
      seen.push(node.tagName)
      if (node.tagName === 'h2') node.children.push(h('a.d-anchor', '#'))
      return undefined
    })
    return seen
  }
  const expected = names((tree, visitor) => visit(tree, 'element', visitor))
  assert.deepEqual(names(walkElements), expected)
  assert.ok(expected.includes('code'), 'inside MDX JSX')
  assert.equal(expected[1], 'a', 'the added anchor')
})

test('walkElements stops when a visitor returns false', () => {
  const seen: string[] = []
  walkElements(page(), (node) => {
    seen.push(node.tagName)
    return node.tagName === 'li' ? false : undefined
  })
  assert.deepEqual(seen, ['h2', 'ul', 'li'])
})

test('hasElementWithClass finds math inside MDX JSX and nothing on a page without it', () => {
  assert.equal(hasElementWithClass(page(), ['math-inline', 'math-display']), true)
  assert.equal(hasElementWithClass(page(), ['math-display', 'language-math']), false)
})

test('walkNodes meets the nodes visit meets below the root, in the same order', () => {
  const processor = createPageProcessor()
  const mdast = processor.parse(
    '# Title\n\n<Note title="n">\n  A [link](/a) and `code` in a <Badge>note</Badge>.\n</Note>\n\n' +
      '- one\n  - two **bold**\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```ts\nconst x = 1\n```\n',
  )
  const expected: unknown[] = []
  visit(mdast, (node) => {
    if (node !== mdast) expected.push(node)
  })
  const seen: unknown[] = []
  walkNodes(mdast as { children: { type: string }[] }, (node) => {
    seen.push(node)
  })
  assert.equal(seen.length, expected.length)
  for (const [index, node] of seen.entries()) assert.equal(node, expected[index])
  assert.ok(seen.some((node) => (node as { type: string }).type === 'mdxJsxTextElement'))
})
