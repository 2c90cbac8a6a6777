/**
 * Steps and Step: an ordered list. A Step's `stepNumber` overrides the count (`<li value>`), its `icon`
 * replaces the number, and `titleSize` (p, h2, h3, h4; the Step's own, else the Steps', else p) picks
 * the title element, so h2/h3 step titles join the table of contents.
 */
import { asJsx, h, isBlank, isComponent, num, str } from './html.js'
import { propContent } from './markup.js'
import type { Component, ComponentContext } from './types.js'

const TITLE_SIZES = new Set(['p', 'h2', 'h3', 'h4'])

export const Steps: Component = (context) => {
  const parentSize = str(context.props.titleSize)
  let number = 0
  const items = context.node.children.flatMap((child) => {
    if (isBlank(child)) return []
    if (!isComponent(child, 'Step')) return [h('li', { className: ['d-step'] }, context.render([child]))]
    const props = asJsx(child).data?.props ?? {}
    number = num(props.stepNumber) ?? number + 1
    return [renderStep(context, props, asJsx(child).children, number, parentSize)]
  })
  return h('ol', { className: ['d-steps'] }, items)
}

/** A Step outside Steps still renders as a one-item list. */
export const Step: Component = (context) =>
  h('ol', { className: ['d-steps'] }, [
    renderStep(context, context.props, context.node.children, num(context.props.stepNumber) ?? 1, undefined),
  ])

function renderStep(
  context: ComponentContext,
  props: ComponentContext['props'],
  children: ComponentContext['node']['children'],
  number: number,
  parentSize: string | undefined,
) {
  const requested = str(props.titleSize) ?? parentSize ?? 'p'
  const size = TITLE_SIZES.has(requested) ? requested : 'p'
  const title = propContent(props.title)
  const icon = props.icon !== undefined ? context.icon(props.icon, props.iconType) : undefined
  return h('li', { className: ['d-step'], value: String(number) }, [
    h('div', { className: ['d-step-marker'], ariaHidden: 'true' }, [icon ?? String(number)]),
    h('div', { className: ['d-step-content'] }, [
      title && h(size, { className: ['d-step-title'] }, title),
      h('div', { className: ['d-step-body'] }, context.render(children)),
    ]),
  ])
}
