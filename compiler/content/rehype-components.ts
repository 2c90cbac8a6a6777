/**
 * rehype plugin: turn the MDX JSX elements that remark-rehype passed through into HTML, using the
 * component table (compiler/components/). Lowercase names are HTML elements; an unknown component is
 * a warning (once per name on a page) and its children still render.
 */

import type { Element, ElementContent, Root, RootContent } from 'hast'
import type { VFile } from 'vfile'
import { asJsx, h } from '../components/html.js'
import { knownIconNames, neutralIcon } from '../components/icons.js'
import { components, htmlElement, resolveIcon } from '../components/index.js'
import { isMarkup, markupToHast, propContent, renderedProp } from '../components/markup.js'
import type { ComponentContext, JsxNode } from '../components/types.js'
import { didYouMean } from '../config/schema-errors.js'
import { uniqueId } from '../platform-ids.js'
import { type PageContext, placeOf, report } from './context.js'
import type { StaticValue } from './static-value.js'

const isJsx = (node: RootContent | ElementContent): boolean =>
  node.type === ('mdxJsxFlowElement' as string) || node.type === ('mdxJsxTextElement' as string)

export default function rehypeComponents() {
  return (tree: Root, file: VFile): void => {
    const page = file.data.page
    if (!page) return
    liftPropSlots(page, tree.children as ElementContent[])
    tree.children = renderNodes(page, tree.children as ElementContent[]) as RootContent[]
  }
}

/**
 * Render each prop written as JSX (a child marked `propSlot`, see jsx-prop-slots.ts) into its prop,
 * innermost first, before any component runs: a component that reads its children's props (Tabs
 * reading each Tab's title) then finds them rendered too.
 */
function liftPropSlots(page: PageContext, nodes: readonly ElementContent[]): void {
  for (const node of nodes) {
    if (!('children' in node)) continue
    liftPropSlots(page, node.children)
    if (!isJsx(node)) continue
    const jsx = node as unknown as JsxNode
    const slots = jsx.children.filter((child) => isJsx(child) && asJsx(child).data?.propSlot !== undefined)
    if (slots.length === 0) continue
    jsx.children = jsx.children.filter((child) => !slots.includes(child))
    const props = { ...jsx.data?.props }
    for (const slot of slots) {
      const name = asJsx(slot).data?.propSlot as string
      props[name] = renderedProp(renderNodes(page, asJsx(slot).children))
    }
    jsx.data = { ...jsx.data, props }
  }
}

function renderNodes(page: PageContext, nodes: readonly ElementContent[]): ElementContent[] {
  return nodes.flatMap((node): ElementContent[] => {
    if (isJsx(node)) return renderJsx(page, node as unknown as JsxNode)
    if (node.type === 'element') node.children = renderNodes(page, node.children)
    return [node]
  })
}

function renderJsx(page: PageContext, node: JsxNode): ElementContent[] {
  const name = node.name
  const place = placeOf(node)
  const context: ComponentContext = {
    props: node.data?.props ?? {},
    node,
    inline: node.type === 'mdxJsxTextElement',
    render: (nodes = node.children) => renderNodes(page, nodes),
    icon: (icon, iconType) => renderIcon(page, icon, iconType, place),
    slug: (text) => page.slugger.slug(text || 'section'),
    uniqueId: (id) => uniqueId(id, page.counters),
    nextId: (prefix) => {
      const count = (page.counters.get(prefix) ?? 0) + 1
      page.counters.set(prefix, count)
      return `${prefix}-${count}`
    },
    warn: (rule, message, kind = 'warning') => report(page, kind, rule, message, place),
  }
  if (name === null) return context.render()
  const component = /^[a-z]/.test(name) ? htmlElement : components.get(name)
  if (!component) {
    if (!page.unknownComponents.has(name)) {
      page.unknownComponents.add(name)
      const suggestion = didYouMean(name, [...components.keys()])
      report(
        page,
        'warning',
        'unknown-component',
        suggestion
          ? `Unknown component <${name}>; did you mean <${suggestion}>? Its content is shown without it`
          : `Unknown component <${name}>, expected a built-in component (Card, Tabs, Note…); its content is shown without it`,
        place,
      )
    }
    return [
      h(context.inline ? 'span' : 'div', { className: ['d-unknown'], dataComponent: name }, context.render()),
    ]
  }
  const output = component(context)
  const nodes = Array.isArray(output) ? output : [output]
  if (component !== htmlElement) addAuthorClasses(nodes, context.props)
  if (node.position) for (const rendered of nodes) stampPosition(rendered, node.position)
  return nodes
}

/**
 * `className` (or `class`) on a built-in component goes on its root element, after the theme's own
 * classes: `<Card className="mt-8">` is `<div class="d-card mt-8">` (Tailwind sees the names too:
 * compiler/content/remark-class-names.ts).
 */
function addAuthorClasses(nodes: readonly ElementContent[], props: ComponentContext['props']): void {
  const names = [props.className, props.class]
    .flatMap((value) => (typeof value === 'string' ? value.split(/\s+/) : []))
    .filter((name) => name !== '')
  const root = nodes.find((node): node is Element => node.type === 'element')
  if (names.length === 0 || !root) return
  const own: unknown = root.properties.className
  const current = Array.isArray(own) ? own.map(String) : typeof own === 'string' ? own.split(/\s+/) : []
  root.properties.className = [...new Set([...current, ...names])]
}

/** Give markup a component made the element's place, so later passes (links) can report a line. */
function stampPosition(node: ElementContent, position: NonNullable<JsxNode['position']>): void {
  if (node.position || node.type !== 'element') return
  node.position = position
  for (const child of node.children) stampPosition(child, position)
}

function renderIcon(
  page: PageContext,
  icon: unknown,
  iconType: unknown,
  place: ReturnType<typeof placeOf>,
): Element | undefined {
  if (isMarkup(icon) || (typeof icon === 'object' && icon !== null)) {
    const [svg] = isMarkup(icon) ? markupToHast(icon) : (propContent(icon as StaticValue) ?? [])
    if (svg?.type !== 'element') return undefined
    svg.properties = { ...svg.properties, ariaHidden: 'true', focusable: 'false' }
    return svg
  }
  if (typeof icon !== 'string' || icon.trim() === '') return undefined
  // A path or URL is an image icon; the link pass makes it relative and lists it as an asset.
  if (/[/.]/.test(icon)) return h('img', { className: ['d-icon-img'], src: icon, alt: '' })
  const resolved = resolveIcon(icon, typeof iconType === 'string' ? iconType : undefined)
  if (!resolved) {
    // One warning per name on a page (the build keeps one per name across pages, see build.ts).
    if (!page.unknownIcons.has(icon)) {
      page.unknownIcons.add(icon)
      const suggestion = didYouMean(icon.trim().toLowerCase().replace(/^fa-/, ''), knownIconNames())
      report(
        page,
        'warning',
        'unknown-icon',
        suggestion
          ? `Unknown icon "${icon}"; did you mean "${suggestion}"? A neutral circle is shown`
          : `Unknown icon "${icon}", expected a Font Awesome free icon name or a Lucide one; a neutral circle is shown`,
        place,
      )
    }
    const neutral = neutralIcon()
    page.icons.add(neutral.id)
    return neutral.svg
  }
  if (resolved.proName && !page.unknownIcons.has(icon)) {
    page.unknownIcons.add(icon)
    report(
      page,
      'warning',
      'paid-icon',
      `Unexpected Font Awesome Pro icon "${resolved.proName}", expected a free one; the nearest free icon "${resolved.id.replace(/^\w+\//, '')}" is shown`,
      place,
    )
  }
  page.icons.add(resolved.id)
  return resolved.svg
}
