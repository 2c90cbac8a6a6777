/** The navigation shape fixtures (fixtures/navigation/<shape>/) and how their trees read when pinned. */
import { readdirSync } from 'node:fs'
import { fromPackageRoot } from '../../../compiler/assets.js'
import type { NavItem, NavigationTree } from '../../../compiler/config/types.js'

export const shapesDir = fromPackageRoot('test', 'compiler', 'config', 'fixtures', 'navigation')
export const shapes = readdirSync(shapesDir)

/** The tree as a reviewer reads it: each sidebar with its path of sections, then its outline. */
export function outline(tree: NavigationTree): string {
  const lines: string[] = []
  const item = (entry: NavItem, depth: number) => {
    const indent = '  '.repeat(depth)
    if (entry.kind === 'page') {
      lines.push(`${indent}page ${entry.slug}${entry.hidden ? ' (hidden)' : ''}`)
      return
    }
    const facts = [
      entry.expanded && 'expanded',
      entry.hidden && 'hidden',
      entry.icon && `icon=${entry.icon}`,
      entry.root && `root=${entry.root}`,
      entry.tag && `tag=${entry.tag}`,
    ].filter(Boolean)
    lines.push(`${indent}group ${JSON.stringify(entry.label)}${facts.length ? ` (${facts.join(', ')})` : ''}`)
    for (const child of entry.items) item(child, depth + 1)
  }
  tree.tabs.forEach((tab, index) => {
    const path = tab.path
      .map((section) => {
        const facts = [
          section.icon && `icon=${section.icon}`,
          section.locale && `locale=${section.locale}`,
          section.hidden && 'hidden',
        ]
        const extra = facts.filter(Boolean).join(', ')
        return `${section.kind} ${JSON.stringify(section.label)}${extra ? ` (${extra})` : ''}`
      })
      .join(' > ')
    lines.push(`sidebar ${index}: ${path || '(root)'}${tab.href ? ` → ${tab.href}` : ''}`)
    for (const entry of tab.items) item(entry, 1)
  })
  for (const link of tree.global.anchors)
    lines.push(`global anchor ${JSON.stringify(link.label)} → ${link.href}`)
  lines.push(
    `pages: ${tree.pages.map((page) => `${page.slug}@${page.tab}${page.hidden ? ' (hidden)' : ''}`).join(' ')}`,
  )
  return `${lines.join('\n')}\n`
}
