/**
 * Callout and its shorthands. Type mapping (class `d-callout-<type>`, default icon):
 *   <Note>    → note     (circle-exclamation)   <Info>  → info    (circle-info)
 *   <Tip>     → tip      (lightbulb)            <Check> → check   (circle-check)
 *   <Warning> → warning  (triangle-exclamation) <Danger>→ danger  (ban)
 *   <Callout type="success"> → success (circle-check); <Callout> without a type → info.
 */
import { h, safeColor, str } from './html.js'
import { propContent, propText } from './markup.js'
import type { Component, ComponentContext } from './types.js'

export const CALLOUT_TYPES = ['info', 'success', 'warning', 'danger', 'note', 'tip', 'check'] as const
type CalloutType = (typeof CALLOUT_TYPES)[number]

const ICONS: Record<CalloutType, string> = {
  info: 'circle-info',
  success: 'circle-check',
  warning: 'triangle-exclamation',
  danger: 'ban',
  note: 'circle-exclamation',
  tip: 'lightbulb',
  check: 'circle-check',
}

function renderCallout(context: ComponentContext, type: CalloutType) {
  const { props } = context
  const color = safeColor(props.color)
  const icon = props.icon !== undefined ? context.icon(props.icon, props.iconType) : context.icon(ICONS[type])
  const title = propContent(props.title)
  return h(
    'aside',
    {
      className: ['d-callout', `d-callout-${type}`],
      role: 'note',
      ariaLabel: propText(props.title) || type.charAt(0).toUpperCase() + type.slice(1),
      style: color ? `--d-callout-color: ${color}` : undefined,
    },
    [
      icon && h('span', { className: ['d-callout-icon'], ariaHidden: 'true' }, [icon]),
      h('div', { className: ['d-callout-body'] }, [
        title && h('p', { className: ['d-callout-title'] }, title),
        ...context.render(),
      ]),
    ],
  )
}

export const Callout: Component = (context) => {
  const requested = str(context.props.type) ?? 'info'
  const type = (CALLOUT_TYPES as readonly string[]).includes(requested) ? (requested as CalloutType) : 'info'
  if (type !== requested) {
    context.warn(
      'unknown-callout-type',
      `Unknown callout type "${requested}", expected one of ${CALLOUT_TYPES.join(', ')}; using info`,
    )
  }
  return renderCallout(context, type)
}

export const Note: Component = (context) => renderCallout(context, 'note')
export const Info: Component = (context) => renderCallout(context, 'info')
export const Tip: Component = (context) => renderCallout(context, 'tip')
export const Warning: Component = (context) => renderCallout(context, 'warning')
export const Check: Component = (context) => renderCallout(context, 'check')
export const Danger: Component = (context) => renderCallout(context, 'danger')
