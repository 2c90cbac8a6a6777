/**
 * Tree, Tree.Folder and Tree.File (also written Files, Folder / File): a nested list. Openable folders are
 * `<details>` (`defaultOpen` opens them); `openable={false}` folders are always open and not toggleable.
 */
import type { ElementContent } from 'hast'
import { asJsx, bool, h, isBlank, isComponent, str } from './html.js'
import type { Component, ComponentContext } from './types.js'

export const Tree: Component = (context) =>
  h('div', { className: ['d-tree'] }, [
    h('ul', { className: ['d-tree-list'] }, items(context, context.node.children)),
  ])

export const TreeFolder: Component = (context) =>
  h('ul', { className: ['d-tree-list'] }, items(context, [context.node as unknown as ElementContent]))

export const TreeFile: Component = TreeFolder

function items(context: ComponentContext, nodes: readonly ElementContent[]): ElementContent[] {
  return nodes.flatMap((node): ElementContent[] => {
    if (isBlank(node)) return []
    if (isComponent(node, 'Tree.Folder', 'Folder')) {
      const props = asJsx(node).data?.props ?? {}
      const name = str(props.name) ?? ''
      const label = [context.icon('folder'), h('span', { className: ['d-tree-name'] }, [name])]
      const list = h('ul', { className: ['d-tree-list'] }, items(context, asJsx(node).children))
      if (!bool(props.openable, true)) {
        return [
          h('li', { className: ['d-tree-folder'] }, [
            h('span', { className: ['d-tree-label'] }, label),
            list,
          ]),
        ]
      }
      return [
        h('li', { className: ['d-tree-folder'] }, [
          h('details', { open: bool(props.defaultOpen) }, [
            h('summary', { className: ['d-tree-label'] }, label),
            list,
          ]),
        ]),
      ]
    }
    if (isComponent(node, 'Tree.File', 'File')) {
      const name = str(asJsx(node).data?.props?.name) ?? ''
      return [
        h('li', { className: ['d-tree-file'] }, [
          context.icon('file'),
          h('span', { className: ['d-tree-name'] }, [name]),
        ]),
      ]
    }
    return [h('li', { className: ['d-tree-other'] }, context.render([node]))]
  })
}
