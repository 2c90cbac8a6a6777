import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cloneTree } from '../../compiler/clone-tree.js'
import { createHighlighter } from '../../compiler/highlight/index.js'

/** Every object and array reachable from `value`. */
function objectsOf(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value)
    for (const child of Object.values(value)) objectsOf(child, found)
  }
  return found
}

test('a cloned tree equals the original and shares no object with it', async () => {
  const highlighter = await createHighlighter()
  const pre = await highlighter.highlight('const answer = { value: 42 }\nconsole.log(answer)', 'ts')
  assert.ok(pre)
  const tree = {
    type: 'root',
    children: [pre, { type: 'text', value: 'x', position: { start: { line: 1, column: 1 } } }],
    data: { pattern: /a+b/g, nothing: null, missing: undefined, flags: [true, 0, ''] },
  }
  const copy = cloneTree(tree)
  assert.deepEqual(copy, structuredClone(tree))
  const originals = objectsOf(tree)
  for (const object of objectsOf(copy)) assert.ok(!originals.has(object))
  assert.ok(copy.data.pattern instanceof RegExp)
  assert.equal(copy.data.pattern.source, 'a+b')
})

test('the highlighter hands out a tree of its own on every call, hit or miss', async () => {
  const highlighter = await createHighlighter()
  const code = 'print("clone me")'
  const first = await highlighter.highlight(code, 'python')
  assert.ok(first)
  const expected = structuredClone(first)
  first.properties.className = ['changed']
  first.children.length = 0
  const second = await highlighter.highlight(code, 'python')
  assert.deepEqual(second, expected)
  assert.notEqual(second, first)
})
