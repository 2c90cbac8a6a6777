/**
 * docs/reference/server-settings.mdx, a page of the manual's site, generated from the settings table and its rules: every setting with its
 * flag, variable, default, what it accepts and its help line, by group. `npm run docs:generate`
 * writes it; test/server/settings/reference.test.ts fails while the committed file is stale.
 */
import { mdxCell } from '../../lib/mdx-text.js'
import { shownDefault } from './help.js'
import { settingRules } from './rules.js'
import { type SettingSpec, settingGroups, settings } from './table.js'

/** The reference's path from the package root. */
export const referencePath = 'docs/reference/server-settings.mdx'

/** Text for an MDX table cell: `|` would end the cell, `<` open a tag, `{` an expression, `*` emphasis. */
const cell = (text: string): string => mdxCell(text).replaceAll('*', '\\*')

/** Inline code that may hold a backtick or a pipe. */
const code = (text: string): string => `\`${text.replaceAll('|', '\\|')}\``

export function settingsReference(): string {
  const all: SettingSpec<unknown>[] = Object.values(settings)
  const lines = [
    '---',
    'title: docs-server settings',
    'description: Every docs-server flag and environment variable with its default, what it accepts and what it does.',
    '---',
    '',
    '{/* Generated from server/settings/table.ts by `npm run docs:generate`; edit the table, not this file. */}',
    '',
    'Each setting is a flag and an environment variable; the flag wins. An empty value counts as unset.',
    'Every value is checked at start: a bad one stops the server with a message that names the flag, the',
    'variable and what to write (`--port / PORT: expected a whole number from 0 to 65535, got "eighty"`).',
    `\`docs-server --help\` prints the same list. ${all.length} settings in ${Object.keys(settingGroups).length} groups.`,
  ]
  for (const [group, title] of Object.entries(settingGroups)) {
    lines.push(
      '',
      `## ${title}`,
      '',
      '| Flag | Variable | Default | Accepts | Meaning |',
      '| --- | --- | --- | --- | --- |',
    )
    for (const setting of all.filter((entry) => entry.group === group)) {
      const fallback = shownDefault(setting)
      lines.push(
        `| ${code(`--${setting.flag}`)} | ${code(setting.env)} | ${fallback === undefined ? 'unset' : code(fallback)} | ${cell(setting.parse.accepts)} | ${cell(setting.help)} |`,
      )
    }
  }
  lines.push('', '## Rules between settings', '')
  for (const rule of settingRules) {
    const flags = rule.settings.map((name) => code(`--${settings[name].flag}`)).join(', ')
    lines.push(`- ${flags}: ${cell(rule.rule)}.`)
  }
  return `${lines.join('\n')}\n`
}
