/**
 * A pre-order walk over the elements of a hast tree, for the rehype plugins that run on every page:
 * like `visit(tree, 'element', visitor)` (it descends into every node with children, MDX JSX included,
 * and sees children a visitor adds), without the per-node closures and ancestor arrays that made
 * those walks a tenth of an API reference build. `walkNodes` does the same for every node of an mdast
 * or hast tree, for remark plugins that only read.
 */
import type { Element, Root } from 'hast'

interface Parent {
  children: unknown[]
}

/** Calls `visitor` on each element in document order; a visitor returning `false` ends the walk. */
export function walkElements(tree: Root, visitor: (element: Element) => boolean | undefined): void {
  walk(tree as Parent, visitor)
}

function walk(parent: Parent, visitor: (element: Element) => boolean | undefined): boolean {
  const children = parent.children
  for (let index = 0; index < children.length; index++) {
    const node = children[index] as { type: string; children?: unknown[] }
    if (node.type === 'element' && visitor(node as unknown as Element) === false) return false
    if (Array.isArray(node.children) && !walk(node as Parent, visitor)) return false
  }
  return true
}

/** Whether any element of `tree` carries one of `classNames`. */
export function hasElementWithClass(tree: Root, classNames: readonly string[]): boolean {
  let found = false
  walkElements(tree, (element) => {
    const classes = element.properties.className
    if (Array.isArray(classes) && classNames.some((name) => classes.includes(name))) found = true
    return found ? false : undefined
  })
  return found
}

/**
 * Every node of a tree (mdast or hast) below `tree`, in document order: like `visit(tree, visitor)`
 * for a visitor that neither changes the tree nor needs ancestors, without an ancestor array per node.
 */
export function walkNodes<Node extends { type: string }>(
  tree: { children: readonly Node[] },
  visitor: (node: Node) => void,
): void {
  const children = tree.children
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!
    visitor(node)
    const nested = (node as { children?: unknown }).children
    if (Array.isArray(nested)) walkNodes(node as unknown as { children: readonly Node[] }, visitor)
  }
}
