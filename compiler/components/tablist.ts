/**
 * The ARIA tablist that Tabs and CodeGroup share: buttons with `role="tab"`, panels with
 * `role="tabpanel"`, all but the selected one `hidden`. The shell's script adds clicks and arrow keys;
 * `data-tabs` marks the container for it.
 */
import type { Element, ElementContent } from 'hast'
import { h } from './html.js'

export interface TabSpec {
  label: string | ElementContent[]
  icon?: Element | undefined
  content: ElementContent[]
}

export function tablist(id: string, className: string, tabs: TabSpec[], selected: number): Element {
  const current = selected >= 0 && selected < tabs.length ? selected : 0
  return h('div', { className: ['d-tabset', className], dataTabs: '' }, [
    h(
      'div',
      { className: ['d-tabset-list'], role: 'tablist' },
      tabs.map((tab, index) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            className: ['d-tabset-tab'],
            id: `${id}-tab-${index}`,
            ariaControls: [`${id}-panel-${index}`],
            ariaSelected: index === current ? 'true' : 'false',
            tabIndex: index === current ? 0 : -1,
          },
          [tab.icon, ...(typeof tab.label === 'string' ? [tab.label] : tab.label)],
        ),
      ),
    ),
    ...tabs.map((tab, index) =>
      h(
        'div',
        {
          className: ['d-tabset-panel'],
          role: 'tabpanel',
          id: `${id}-panel-${index}`,
          ariaLabelledBy: [`${id}-tab-${index}`],
          tabIndex: 0,
          hidden: index !== current,
        },
        tab.content,
      ),
    ),
  ])
}
