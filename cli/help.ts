/**
 * The `docsctl` Cli with readable help: clipanion writes an option's value as `#0`
 * (`--port #0`); people expect a name for it (`--port <port>`).
 */
import { Cli } from 'clipanion'

/** What a value is called in help, by option; any other option is named after itself. */
const valueNames: Record<string, string> = {
  '--api-url': 'url',
  '--api-key': 'key',
  '--project': 'slug',
  '--host': 'url',
  '--out': 'dir',
  '--dir': 'dir',
  '--timeout': 'seconds',
  '--path-prefix': 'path',
  '--deployment': 'id',
  '--message': 'text',
  '--docs-dir': 'dir',
  '--preview': 'pattern',
  '--allow-spec-host': 'host',
}

export function nameOptionValues(usage: string): string {
  const named = usage.replace(/(--[a-z][a-z-]*)((?: #\d+)+)/g, (_match, option: string) => {
    return `${option} <${valueNames[option] ?? option.slice(2)}>`
  })
  // The option list was padded for `#0`; pad it again for the names.
  const optionLine = new RegExp(`^( {2}(?:${ansi})*-[^ ]*(?: <[^>]+>)?) *((?:${ansi})*) +(\\S.*)$`)
  const lines = named.split('\n')
  const width = Math.max(0, ...lines.map((line) => visibleLength(optionLine.exec(line)?.[1] ?? '')))
  return lines
    .map((line) => {
      const match = optionLine.exec(line)
      return match
        ? `${match[1]}${match[2]}${' '.repeat(width - visibleLength(match[1]!) + 4)}${match[3]}`
        : line
    })
    .join('\n')
}

/** A colour code, which takes no room on screen. */
const ansi = `${String.fromCharCode(27)}\\[[\\d;]*m`
const visibleLength = (text: string): number => text.replace(new RegExp(ansi, 'g'), '').length

export class DocsctlCli extends Cli {
  override usage(...args: Parameters<Cli['usage']>): string {
    return nameOptionValues(super.usage(...args))
  }
}
