import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Expression, Program } from 'estree'
import remarkMdx from 'remark-mdx'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { evaluateExpression, type StaticValue } from '../../../compiler/content/static-value.js'

/** The estree remark-mdx attaches to `{expression}`, as the renderer sees it. */
function expressionOf(code: string): Expression {
  const tree = unified().use(remarkParse).use(remarkMdx).parse(`{${code}}`)
  const node = tree.children[0] as { data?: { estree?: Program } } | undefined
  const statement = node?.data?.estree?.body[0]
  assert.ok(statement?.type === 'ExpressionStatement', `no expression in {${code}}`)
  return statement.expression
}

const scope = new Map<string, StaticValue>([
  ['name', 'docs'],
  ['list', [1, 2, 3]],
  ['config', { nested: { on: true } }],
])

test('literals, lists, objects, templates and names in scope are read', () => {
  const cases: [string, StaticValue][] = [
    ['"text"', 'text'],
    ['42', 42],
    ['-1.5', -1.5],
    ['true', true],
    ['null', null],
    ['undefined', undefined],
    ['[1, "a", [false]]', [1, 'a', [false]]],
    ['{ a: 1, "b-c": "x", [name]: 2 }', { a: 1, 'b-c': 'x', docs: 2 }],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the MDX source of a template literal
    ['`${name}-v${list.length}`', 'docs-v3'],
    ['config.nested.on', true],
    ['config?.missing?.deeper', undefined],
    ['list[1]', 2],
    ['[...list, 4]', [1, 2, 3, 4]],
    ['{ ...config, extra: 1 }', { nested: { on: true }, extra: 1 }],
    ['name + "!"', 'docs!'],
    ['!true', false],
    ['false || "fallback"', 'fallback'],
  ]
  for (const [code, expected] of cases) {
    const result = evaluateExpression(expressionOf(code), scope)
    assert.ok(result.ok, `${code} should be static`)
    assert.deepEqual(result.value, expected, code)
  }
})

test('anything that would run code is refused with the place of the offending part', () => {
  const cases: [string, RegExp][] = [
    ['alert(1)', /function call/],
    ['new Date()', /`new` expression/],
    ['() => 1', /function/],
    ['window.location', /name `window`/],
    ['a = 1', /assignment/],
    ['cond ? 1 : 2', /name `cond`|conditional/],
    ['{ ["__proto__"]: 1 }', /__proto__/],
    ['/re/', /regular expression/],
    ['[1, fetch()]', /function call/],
  ]
  for (const [code, reason] of cases) {
    const result = evaluateExpression(expressionOf(code), scope)
    assert.equal(result.ok, false, `${code} must not be static`)
    if (!result.ok) {
      assert.match(result.reason, reason, code)
      assert.equal(result.node.loc?.start.line, 1, `${code}: the refused node keeps its line`)
    }
  }
})
