/**
 * rehype plugin, the last before serialisation: the page passes `hast-util-sanitize` with the
 * allow-list in sanitize-schema.ts, whatever produced it (Markdown, components, an author's HTML,
 * markup props, snippets). Before that, one walk gives each element and attribute its canonical name
 * (so `<sCRIPT>` and `ONCLICK` meet the allow-list as `script` and `onClick`), empties frames (their
 * content is re-parsed by browsers), checks every URL against the one URL policy, and reports what
 * is left out at its line.
 */
import type { Element, ElementContent, Properties, Root } from 'hast'
import { sanitize } from 'hast-util-sanitize'
import { find, html, svg } from 'property-information'
import type { VFile } from 'vfile'
import { urlPropertyProblem } from '../url-policy.js'
import { type PageContext, placeOf, report } from './context.js'
import { pageSchema, SHELL_ATTRIBUTES, STRIP_WITH_CONTENT, SVG_ELEMENTS } from './sanitize-schema.js'

const allowedElements = new Set(pageSchema.tagNames)
const stripped = new Set(STRIP_WITH_CONTENT)
/** Lowercased name → the name the schema uses (`lineargradient` → `linearGradient`). */
const canonicalNames = new Map(
  [...allowedElements, ...stripped, ...SVG_ELEMENTS].map((name) => [name.toLowerCase(), name]),
)
const globalAttributes = new Set(pageSchema.attributes?.['*']?.map(attributeName))
const elementAttributes = new Map(
  Object.entries(pageSchema.attributes ?? {}).map(([tag, list]) => [tag, new Set(list.map(attributeName))]),
)

function attributeName(definition: string | [string, ...unknown[]]): string {
  return typeof definition === 'string' ? definition : definition[0]
}

export default function rehypeSanitizePage() {
  return (tree: Root, file: VFile): Root => {
    const page = file.data.page
    if (page) tree.children = prepare(page, tree.children as ElementContent[], false) as Root['children']
    return sanitize(tree, pageSchema) as Root
  }
}

/** Canonical names, reports and URL checks; refused elements are removed or unwrapped here already. */
function prepare(page: PageContext, nodes: readonly ElementContent[], inSvg: boolean): ElementContent[] {
  return nodes.flatMap((node): ElementContent[] => {
    if (node.type !== 'element') return node.type === 'text' ? [node] : []
    const written = node.tagName
    const name = canonicalNames.get(written.toLowerCase()) ?? written.toLowerCase()
    const svgContent = inSvg || name === 'svg'
    if (!allowedElements.has(name)) {
      report(
        page,
        'warning',
        'forbidden-element',
        `Unexpected <${written}> in a page, expected content without scripts, styles, forms or embedded documents; it is left out`,
        placeOf(node),
      )
      return stripped.has(name) ? [] : prepare(page, node.children, svgContent)
    }
    node.tagName = name
    node.properties = prepareProperties(page, node, svgContent)
    // A frame's children are text the browser parses again as markup: never needed, never kept.
    node.children = name === 'iframe' ? [] : prepare(page, node.children, svgContent)
    return [node]
  })
}

function prepareProperties(page: PageContext, node: Element, inSvg: boolean): Properties {
  const properties: Properties = {}
  for (const [key, value] of Object.entries(node.properties)) {
    if (value === undefined || value === null) continue
    const property = propertyName(inSvg ? svg : html, key)
    const refusal = attributeRefusal(node.tagName, property, value)
    if (refusal) {
      report(
        page,
        'warning',
        refusal.rule,
        `Unexpected \`${key}\` on <${node.tagName}>${refusal.reason}`,
        placeOf(node),
      )
      continue
    }
    properties[property] = value
  }
  return properties
}

/**
 * The property an attribute name stands for. property-information's `find` looks names up with `in`,
 * so `constructor` or `toString` found Object.prototype's members and threw: such a name is no known
 * property, and stays as written (the allow-list then refuses it).
 */
function propertyName(schema: typeof html, key: string): string {
  return key.toLowerCase() in Object.prototype ? key : find(schema, key).property
}

function attributeRefusal(
  tagName: string,
  property: string,
  value: Properties[string],
): { rule: string; reason: string } | undefined {
  const allowed =
    !SHELL_ATTRIBUTES.has(property) &&
    (globalAttributes.has(property) ||
      elementAttributes.get(tagName)?.has(property) === true ||
      (/^data[A-Z0-9]/.test(property) && globalAttributes.has('data*')))
  if (!allowed) {
    const reason = /^on/i.test(property)
      ? ' holding an event handler; author code does not run, so it is left out'
      : /^srcdoc$/i.test(property)
        ? ' holding a document of its own; it is left out'
        : ', expected an attribute a page can use; it is left out'
    return { rule: 'forbidden-attribute', reason }
  }
  const problem = urlPropertyProblem(tagName, property, value)
  return problem
    ? { rule: 'unsafe-url', reason: ` holding a ${problem}, expected an http(s) or site URL; it is left out` }
    : undefined
}
