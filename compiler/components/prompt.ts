/**
 * Prompt: a prompt for an AI tool, shown as text with a copy button (the shell's copy script reads
 * `data-copy`), and its `description` above it as inline Markdown.
 */
import type { ElementContent } from 'hast'
import { h, str } from './html.js'
import { inlineMarkdown } from './inline-markdown.js'
import type { Component } from './types.js'

export const Prompt: Component = (context) => {
  const description = str(context.props.description)
  const body = context.render()
  return h('div', { className: ['d-prompt'] }, [
    description && h('p', { className: ['d-prompt-description'] }, inlineMarkdown(description)),
    h('div', { className: ['d-prompt-body'] }, body),
    h(
      'button',
      {
        type: 'button',
        className: ['copy', 'd-code-copy', 'd-prompt-copy'],
        ariaLabel: 'Copy prompt',
        dataCopy: textOf(body),
      },
      ['Copy'],
    ),
  ])
}

function textOf(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) => (node.type === 'text' ? node.value : node.type === 'element' ? textOf(node.children) : ''))
    .join('')
    .trim()
}
