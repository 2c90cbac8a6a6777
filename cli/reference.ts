/**
 * docs/reference/docsctl.mdx, generated from the commands' own clipanion definitions (their paths,
 * usage, options, details and examples): `npm run docs:generate` writes it, and
 * test/docs/references.test.ts fails while the committed page differs or a command or option is missing.
 */
import { mdxCell, mdxText } from '../lib/mdx-text.js'
import { nameOptionValues } from './help.js'
import { createDocsctlCli } from './registry.js'

/** The reference's path from the package root. */
export const docsctlReferencePath = 'docs/reference/docsctl.mdx'

/** Each command's definition as `docsctl <command> --help` prints it, without colour. */
export function docsctlDefinitions() {
  return createDocsctlCli(false)
    .definitions()
    .filter((definition) => definition.path !== 'docsctl --help' && definition.path !== 'docsctl --version')
}

/** A command's heading: its path without the binary, `docsctl deployments list` → `deployments list`. */
export const commandHeading = (path: string): string => path.replace(/^docsctl /, '')

/** The heading's anchor, as the page's slugger makes it: `deployments-list`. */
const commandAnchor = (path: string): string => commandHeading(path).replaceAll(' ', '-')

type Definition = ReturnType<typeof docsctlDefinitions>[number]

/** The command's whole synopsis as `docsctl --help` lists it: its path, each option (in brackets unless required), its operands. */
function synopsis(definition: Definition): string {
  const options = definition.options.map((option) => {
    const named = nameOptionValues(option.definition)
    return option.required ? named : `[${named}]`
  })
  const operands = definition.usage.slice(definition.path.length).trim()
  return [definition.path, ...options, ...(operands ? [operands] : [])].join(' ')
}

/** clipanion's details are wrapped for a terminal: each paragraph becomes one line again. */
const paragraphs = (details: string): string[] =>
  details
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())

export function docsctlReference(): string {
  const definitions = docsctlDefinitions()
  const lines = [
    '---',
    'title: docsctl commands',
    'description: Every docsctl command with its usage, options and examples, generated from the CLI itself.',
    '---',
    '',
    '{/* Generated from cli/registry.ts and cli/commands/ by `npm run docs:generate`; edit the commands, not this file. */}',
    '',
    `\`docsctl --help\` lists the same ${definitions.length} commands, and \`docsctl <command> --help\` prints each`,
    'section below. The directory, project and environment variables every command reads, and the exit',
    'codes, are on [docsctl environment and exit codes](/reference/cli-environment).',
    '',
    '| Command | What it does |',
    '| --- | --- |',
    ...definitions.map(
      (definition) =>
        `| [\`${definition.path}\`](#${commandAnchor(definition.path)}) | ${mdxCell((definition.description ?? '').trim())} |`,
    ),
  ]
  for (const definition of definitions) {
    lines.push('', `## ${commandHeading(definition.path)}`, '')
    if (definition.description) lines.push(`${mdxText(definition.description.trim())}.`, '')
    lines.push('```sh', synopsis(definition), '```')
    if (definition.options.length > 0) {
      lines.push('', '| Option | Meaning |', '| --- | --- |')
      for (const option of definition.options) {
        const named = nameOptionValues(option.definition).replaceAll('|', '\\|')
        lines.push(
          `| \`${named}\` | ${mdxCell(option.description ?? '')}${option.required ? ' (required)' : ''} |`,
        )
      }
    }
    if (definition.details)
      lines.push('', ...paragraphs(definition.details).flatMap((text) => [mdxText(text), '']))
    if (lines.at(-1) === '') lines.pop()
    if (definition.examples && definition.examples.length > 0) {
      lines.push('', '**Examples**', '')
      for (const [description, command] of definition.examples) {
        lines.push(
          `${mdxText(description.trim())}:`,
          '',
          '```sh',
          command.replace(/^\$0\b/, 'docsctl'),
          '```',
          '',
        )
      }
      lines.pop()
    }
  }
  return `${lines.join('\n')}\n`
}
