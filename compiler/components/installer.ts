/** Installer: a copyable install command; `command` overrides the default `npm install <path>`. */
import { codeBlock, plainPre } from '../highlight/code-block.js'
import { h, str } from './html.js'
import type { Component } from './types.js'

export const Installer: Component = (context) => {
  const path = str(context.props.path)
  const command = str(context.props.command) ?? (path ? `npm install ${path}` : undefined)
  if (!command) {
    context.warn(
      'missing-prop',
      'Unexpected <Installer> without a path, expected path="package-name" or command="…"',
    )
    return []
  }
  return h('div', { className: ['d-installer'] }, [
    codeBlock(plainPre(command), { language: 'bash', title: 'Install' }),
  ])
}
