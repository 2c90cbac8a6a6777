/** The contract between the components plugin (compiler/content/rehype-components.ts) and each component. */
import type { Element, ElementContent, Properties } from 'hast'
import type { MdxJsxFlowElementHast, MdxJsxTextElementHast } from 'mdast-util-mdx-jsx'
import type { StaticObject } from '../content/static-value.js'

export type JsxNode = MdxJsxFlowElementHast | MdxJsxTextElementHast

export interface ComponentContext {
  /** The element's attributes, read as static values. */
  props: StaticObject
  node: JsxNode
  /** True for an element inside a paragraph (`mdxJsxTextElement`). */
  inline: boolean
  /** Render nodes (the element's children by default), turning nested components into HTML. */
  render(nodes?: readonly ElementContent[]): ElementContent[]
  /** An icon by name (or image path/URL) as inline SVG or `<img>`; `undefined` (and a warning) if unknown. */
  icon(name: unknown, iconType?: unknown): Element | undefined
  /** A unique, stable id on this page from `text` (github-slugger, shared with headings). */
  slug(text: string): string
  /** `id`, made unique on the page the way headings' ids are (`id-1`, `id-2`, …). */
  uniqueId(id: string): string
  /** A page-wide counter for ids of things without a name (tab sets). */
  nextId(prefix: string): string
  /** Report a problem at the element. `problem` is an error in strict mode, a warning in lenient. */
  warn(rule: string, message: string, kind?: 'warning' | 'problem'): void
}

export type Component = (context: ComponentContext) => ElementContent | ElementContent[]

export type { Element, ElementContent, Properties }
