/** The text of `docs-server --help`: the commands, then every setting of the table by group. */
import { type SettingSpec, settingGroups, settings } from './table.js'

/** What --help and the reference print as a setting's default; undefined when it has none. */
export function shownDefault(setting: SettingSpec<unknown>): string | undefined {
  return typeof setting.default === 'object' ? setting.default.shown : setting.default
}

export function settingsHelp(): string {
  const all: SettingSpec<unknown>[] = Object.values(settings)
  const groups = Object.entries(settingGroups).flatMap(([group, title]) => {
    const rows = all
      .filter((setting) => setting.group === group)
      .map((setting) => {
        // At least one space between a long flag and its help line.
        const left = `  --${setting.flag} <value> `.padEnd(34)
        const fallback = shownDefault(setting)
        const suffix = fallback === undefined ? '' : ` (default ${fallback})`
        return `${left}${setting.help}${suffix}\n${''.padEnd(34)}env ${setting.env}`
      })
    return ['', `${title}:`, ...rows]
  })
  return [
    'Usage: docs-server [start] [options]',
    '       docs-server token create --email <email> [options]',
    '       docs-server migrate [options]',
    '       docs-server gc [--dry-run] [options]',
    '',
    'Options (each also an environment variable; flags win; an empty value counts as unset):',
    ...groups,
    '',
    '  --help                        show this help',
  ].join('\n')
}
