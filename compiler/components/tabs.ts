/** Tabs and Tab: an ARIA tablist (see tablist.ts); a Tab's label is `title`, or its alias `label`. */
import { asJsx, h, isBlank, isComponent, num } from './html.js'
import { propContent } from './markup.js'
import { tablist } from './tablist.js'
import type { Component } from './types.js'

export const Tabs: Component = (context) => {
  const children = context.node.children.filter((child) => !isBlank(child))
  const tabs = children.flatMap((child, index) => {
    if (!isComponent(child, 'Tab')) return []
    const props = asJsx(child).data?.props ?? {}
    return [
      {
        label: propContent(props.title) ?? propContent(props.label) ?? `Tab ${index + 1}`,
        icon: props.icon !== undefined ? context.icon(props.icon, props.iconType) : undefined,
        content: context.render(asJsx(child).children),
      },
    ]
  })
  if (tabs.length !== children.length) {
    context.warn(
      'unexpected-child',
      'Unexpected content in <Tabs> outside a <Tab>, expected only <Tab> children; it is left out',
    )
  }
  return tablist(context.nextId('tabs'), 'd-tabset-tabs', tabs, num(context.props.defaultTabIndex) ?? 0)
}

/** A Tab outside Tabs: its content, titled. */
export const Tab: Component = (context) =>
  h('div', { className: ['d-tabset-single'] }, [
    h(
      'p',
      { className: ['d-tabset-single-title'] },
      propContent(context.props.title) ?? propContent(context.props.label) ?? [],
    ),
    ...context.render(),
  ])
