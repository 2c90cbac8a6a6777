/**
 * Props written as JSX (`<Update label={<><Icon icon="rocket" /> Quickstart</>}>`, `<Card
 * title={<Badge>New</Badge>}>`): the JSX becomes MDX JSX nodes inside a child of the element marked
 * with the prop's name (`data.propSlot`). From there it is content like any other: its attributes are
 * read as static values, code components in it render in the sandbox, links are checked, and
 * rehype-components renders it into the prop just before the element's own component runs.
 */
import type { Expression, Program } from 'estree'
import type { JSXElement, JSXFragment } from 'estree-jsx'
import type { Nodes, PhrasingContent, RootContent } from 'mdast'
import type { MdxJsxAttribute, MdxJsxExpressionAttribute, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import type { JsxElement } from './mdx-static.js'

declare module 'mdast-util-mdx-jsx' {
  interface MdxJsxFlowElementData {
    /** Set on a child that holds the value of this prop of its parent, written as JSX. */
    propSlot?: string
  }
  interface MdxJsxTextElementData {
    propSlot?: string
  }
  interface MdxJsxFlowElementHastData {
    propSlot?: string
  }
  interface MdxJsxTextElementHastData {
    propSlot?: string
  }
}

type Position = Nodes['position']

export const isJsxValue = (node: Expression | undefined): node is Expression =>
  node !== undefined && ((node.type as string) === 'JSXElement' || (node.type as string) === 'JSXFragment')

/** The child holding prop `name`, whose JSX value is `expression`. */
export function propSlot(name: string, expression: Expression, position: Position): MdxJsxTextElement {
  return {
    type: 'mdxJsxTextElement',
    name: null,
    attributes: [],
    children: toMdast(expression as unknown as JSXElement | JSXFragment, position),
    data: { propSlot: name },
    ...(position ? { position } : {}),
  }
}

export const isPropSlot = (node: RootContent | JsxElement): boolean =>
  (node.type === 'mdxJsxTextElement' || node.type === 'mdxJsxFlowElement') &&
  typeof node.data?.propSlot === 'string'

const program = (expression: Expression): Program => ({
  type: 'Program',
  sourceType: 'module',
  body: [{ type: 'ExpressionStatement', expression }],
})

function toMdast(node: JSXElement | JSXFragment, position: Position): PhrasingContent[] {
  const children = node.children.flatMap((child): PhrasingContent[] => {
    if (child.type === 'JSXText') {
      // JSX drops whitespace-only lines and joins the rest of a text's lines with a space.
      if (child.value.trim() === '' && child.value.includes('\n')) return []
      return [{ type: 'text', value: child.value.replace(/\s*\n\s*/g, ' ') }]
    }
    if (child.type === 'JSXElement' || child.type === 'JSXFragment') return toMdast(child, position)
    if (child.type === 'JSXExpressionContainer') {
      const expression = child.expression
      if (expression.type === 'JSXEmptyExpression') return []
      if (isJsxValue(expression as Expression))
        return toMdast(expression as unknown as JSXElement | JSXFragment, position)
      return [
        {
          type: 'mdxTextExpression',
          value: '',
          data: { estree: program(expression as Expression) },
          ...(position ? { position } : {}),
        },
      ]
    }
    return []
  })
  if (node.type === 'JSXFragment') return children
  const opening = node.openingElement
  const name = jsxName(opening.name)
  // Event handlers are never kept (see components/markup.ts), so they are not even read.
  const kept = opening.attributes.filter(
    (attribute) => attribute.type === 'JSXSpreadAttribute' || !/^on[A-Z]/.test(jsxName(attribute.name)),
  )
  const attributes = kept.map((attribute): MdxJsxAttribute | MdxJsxExpressionAttribute => {
    if (attribute.type === 'JSXSpreadAttribute') {
      return {
        type: 'mdxJsxExpressionAttribute',
        value: '',
        data: {
          estree: program({
            type: 'ObjectExpression',
            properties: [{ type: 'SpreadElement', argument: attribute.argument }],
          }),
        },
      }
    }
    const key = jsxName(attribute.name)
    const value = attribute.value
    if (value === null) return { type: 'mdxJsxAttribute', name: key, value: null }
    if (value.type === 'Literal') return { type: 'mdxJsxAttribute', name: key, value: String(value.value) }
    const expression =
      value.type === 'JSXExpressionContainer'
        ? value.expression.type === 'JSXEmptyExpression'
          ? undefined
          : (value.expression as Expression)
        : (value as unknown as Expression)
    if (!expression) return { type: 'mdxJsxAttribute', name: key, value: null }
    return {
      type: 'mdxJsxAttribute',
      name: key,
      value: { type: 'mdxJsxAttributeValueExpression', value: '', data: { estree: program(expression) } },
    }
  })
  return [
    {
      type: 'mdxJsxTextElement',
      name,
      attributes,
      children,
      ...(position ? { position } : {}),
    } as MdxJsxTextElement,
  ]
}

function jsxName(name: JSXElement['openingElement']['name']): string {
  if (name.type === 'JSXIdentifier') return name.name
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`
  return `${jsxName(name.object as JSXElement['openingElement']['name'])}.${name.property.name}`
}
