/**
 * Author content never executes: an MDX `{expression}` or JSX attribute is read from its estree as a
 * static value (literals, arrays and objects of them, template strings, names bound in scope, member
 * access on those) or refused with the place of the first part that is not static.
 */
import type { Node as EstreeNode, Expression, Program, SpreadElement } from 'estree'
import type { JSXElement, JSXFragment } from 'estree-jsx'
import { JSX_MARKUP } from '../components/markup.js'

export type StaticValue = string | number | boolean | null | undefined | StaticValue[] | StaticObject
export interface StaticObject {
  [key: string]: StaticValue
}

export type Scope = ReadonlyMap<string, StaticValue>

export type StaticResult =
  | { ok: true; value: StaticValue }
  | { ok: false; node: EstreeNode; reason: string }
  /** The expression is only a comment, `{/* like this *\/}`: it renders nothing. */
  | { ok: true; empty: true; value: undefined }

class NotStatic extends Error {
  constructor(
    readonly node: EstreeNode,
    readonly reason: string,
  ) {
    super(reason)
  }
}

/** Evaluate the single expression of an MDX expression's program. */
export function evaluateProgram(program: Program, scope: Scope): StaticResult {
  const statement = program.body[0]
  if (!statement) return { ok: true, empty: true, value: undefined }
  if (statement.type !== 'ExpressionStatement' || program.body.length > 1) {
    return { ok: false, node: statement, reason: describeNode(statement) }
  }
  return evaluateExpression(statement.expression, scope)
}

export function evaluateExpression(expression: Expression, scope: Scope): StaticResult {
  try {
    return { ok: true, value: evaluate(expression, scope) }
  } catch (error) {
    if (error instanceof NotStatic) return { ok: false, node: error.node, reason: error.reason }
    throw error
  }
}

function evaluate(node: Expression | SpreadElement, scope: Scope): StaticValue {
  if ((node.type as string) === 'JSXElement' || (node.type as string) === 'JSXFragment') {
    return evaluateJsx(node as unknown as JSXElement | JSXFragment, scope)
  }
  switch (node.type) {
    case 'Literal':
      if ('regex' in node || 'bigint' in node) throw new NotStatic(node, 'regular expression or bigint')
      return node.value as StaticValue
    case 'TemplateLiteral': {
      let text = ''
      node.quasis.forEach((quasi, index) => {
        text += quasi.value.cooked ?? quasi.value.raw
        const expression = node.expressions[index]
        if (expression) text += String(evaluate(expression as Expression, scope))
      })
      return text
    }
    case 'ArrayExpression':
      return node.elements.flatMap((element) => {
        if (element === null) return [undefined]
        if (element.type === 'SpreadElement') {
          const spread = evaluate(element.argument, scope)
          if (!Array.isArray(spread)) throw new NotStatic(element, 'spread of something that is not a list')
          return spread
        }
        return [evaluate(element, scope)]
      })
    case 'ObjectExpression': {
      const object: StaticObject = {}
      for (const property of node.properties) {
        if (property.type === 'SpreadElement') {
          const spread = evaluate(property.argument, scope)
          if (!isObject(spread)) throw new NotStatic(property, 'spread of something that is not an object')
          Object.assign(object, spread)
          continue
        }
        if (property.kind !== 'init' || property.method) throw new NotStatic(property, 'method or accessor')
        let key: string
        if (property.computed) key = String(evaluate(property.key as Expression, scope))
        else if (property.key.type === 'Identifier') key = property.key.name
        else if (property.key.type === 'Literal') key = String(property.key.value)
        else throw new NotStatic(property.key, 'unusual object key')
        if (key === '__proto__') throw new NotStatic(property.key, '`__proto__` key')
        object[key] = evaluate(property.value as Expression, scope)
      }
      return object
    }
    case 'Identifier':
      if (node.name === 'undefined') return undefined
      if (scope.has(node.name)) return scope.get(node.name)
      throw new NotStatic(node, `name \`${node.name}\` (not a literal \`export const\` of this page)`)
    case 'MemberExpression': {
      if (node.object.type === 'Super') throw new NotStatic(node, '`super`')
      const object = evaluate(node.object, scope)
      const key = node.computed
        ? evaluate(node.property as Expression, scope)
        : node.property.type === 'Identifier'
          ? node.property.name
          : undefined
      if (typeof key !== 'string' && typeof key !== 'number')
        throw new NotStatic(node.property, 'computed key')
      if (Array.isArray(object))
        return typeof key === 'number' ? object[key] : key === 'length' ? object.length : undefined
      if (isObject(object)) return Object.hasOwn(object, String(key)) ? object[String(key)] : undefined
      if (object === undefined || object === null) {
        if (node.optional) return undefined
        throw new NotStatic(node, `property of ${String(object)}`)
      }
      return undefined
    }
    case 'ChainExpression':
      return evaluate(node.expression as Expression, scope)
    case 'UnaryExpression': {
      const argument = evaluate(node.argument, scope)
      if (node.operator === '-' && typeof argument === 'number') return -argument
      if (node.operator === '+' && typeof argument === 'number') return argument
      if (node.operator === '!') return !argument
      throw new NotStatic(node, `operator \`${node.operator}\``)
    }
    case 'LogicalExpression': {
      const left = evaluate(node.left, scope)
      if (node.operator === '&&') return left ? evaluate(node.right, scope) : left
      if (node.operator === '||') return left ? left : evaluate(node.right, scope)
      return left ?? evaluate(node.right, scope)
    }
    case 'BinaryExpression':
      if (node.operator === '+') {
        const left = evaluate(node.left as Expression, scope)
        const right = evaluate(node.right, scope)
        if (typeof left === 'number' && typeof right === 'number') return left + right
        if (isPrimitive(left) && isPrimitive(right)) return String(left) + String(right)
      }
      throw new NotStatic(node, `operator \`${node.operator}\``)
    default:
      throw new NotStatic(node, describeNode(node))
  }
}

function evaluateJsx(node: JSXElement | JSXFragment, scope: Scope): StaticObject {
  const children: StaticValue[] = []
  for (const child of node.children) {
    if (child.type === 'JSXText') {
      if (child.value.trim() !== '') children.push(child.value)
    } else if (child.type === 'JSXElement' || child.type === 'JSXFragment') {
      children.push(evaluateJsx(child, scope))
    } else if (child.type === 'JSXExpressionContainer') {
      if (child.expression.type === 'JSXEmptyExpression') continue
      const value = evaluate(child.expression as Expression, scope)
      if (typeof value === 'string' || typeof value === 'number') children.push(String(value))
    } else throw new NotStatic(child as unknown as EstreeNode, 'spread child in JSX')
  }
  if (node.type === 'JSXFragment') return { [JSX_MARKUP]: true, tagName: null, properties: {}, children }
  const name = node.openingElement.name
  if (name.type !== 'JSXIdentifier' || !/^[a-z]/.test(name.name)) {
    throw new NotStatic(
      node as unknown as EstreeNode,
      'component inside a prop value (only plain elements such as <svg> are read)',
    )
  }
  const properties: StaticObject = {}
  for (const attribute of node.openingElement.attributes) {
    if (attribute.type === 'JSXSpreadAttribute')
      throw new NotStatic(attribute as unknown as EstreeNode, 'attribute spread in JSX')
    const key =
      attribute.name.type === 'JSXIdentifier'
        ? attribute.name.name
        : `${attribute.name.namespace.name}:${attribute.name.name.name}`
    // Event handlers are never kept (see components/markup.ts), so they are not even read.
    if (/^on[A-Z]/.test(key)) continue
    const value = attribute.value
    if (value === null) properties[key] = true
    else if (value.type === 'Literal') properties[key] = value.value as StaticValue
    else if (value.type === 'JSXExpressionContainer' && value.expression.type !== 'JSXEmptyExpression') {
      properties[key] = evaluate(value.expression as Expression, scope)
    } else throw new NotStatic(value as unknown as EstreeNode, 'JSX attribute value')
  }
  return { [JSX_MARKUP]: true, tagName: name.name, properties, children }
}

const isObject = (value: StaticValue): value is StaticObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isPrimitive = (value: StaticValue): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

const DESCRIPTIONS: Record<string, string> = {
  CallExpression: 'function call',
  NewExpression: '`new` expression',
  ArrowFunctionExpression: 'function',
  FunctionExpression: 'function',
  AssignmentExpression: 'assignment',
  AwaitExpression: '`await`',
  ConditionalExpression: 'conditional (`?:`)',
  TaggedTemplateExpression: 'tagged template',
  UpdateExpression: 'update (`++`/`--`)',
  SequenceExpression: 'comma sequence',
  ThisExpression: '`this`',
  ImportExpression: '`import()`',
}

/** "function call", "assignment": how an author would name the construct we refuse. */
export function describeNode(node: EstreeNode): string {
  return DESCRIPTIONS[node.type] ?? node.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
}

/** Evaluate `export const a = …, b = …` into bindings; each refused declarator is reported. */
export function evaluateExportConsts(
  program: Program,
  scope: Map<string, StaticValue>,
  refuse: (node: EstreeNode, reason: string) => void,
): void {
  for (const statement of program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration')
      continue
    if (statement.declaration.kind !== 'const') {
      refuse(statement.declaration, `\`export ${statement.declaration.kind}\`; only \`export const\` is read`)
      continue
    }
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || !declarator.init) {
        refuse(declarator, 'destructuring or uninitialised `export const`')
        continue
      }
      const result = evaluateExpression(declarator.init, scope)
      if (result.ok) scope.set(declarator.id.name, result.value)
      else refuse(result.node, result.reason)
    }
  }
}
