/**
 * The `docsctl` Cli with readable help: clipanion writes an option's value as `#0`
 * (`--port #0`); people expect a name for it (`--port <port>`).
 */
import { Cli, type Command } from 'clipanion'
import { distance } from 'fastest-levenshtein'

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

/** What clipanion's parser throws when the words match no command's syntax (its class is not exported). */
interface SyntaxFailure {
  name: 'UnknownSyntaxError'
  input: string[]
  candidates: { usage: string; reason: string | null }[]
}

const isSyntaxFailure = (error: unknown): error is SyntaxFailure =>
  error instanceof Error &&
  error.name === 'UnknownSyntaxError' &&
  Array.isArray((error as Partial<SyntaxFailure>).candidates)

/** The closest of `candidates` to `found`, when it is near enough to be a typo. */
export function closestName(found: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const d = distance(found.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(found.length / 3)) ? best : undefined
}

export class DocsctlCli extends Cli {
  override usage(...args: Parameters<Cli['usage']>): string {
    return nameOptionValues(super.usage(...args))
  }

  /**
   * Usage errors in a sentence that says what to type: clipanion's own list every command (34 of them)
   * for a typo and shows option values as `#0`; this names the closest command or option instead.
   */
  override error(error: unknown, options?: { colored?: boolean; command?: Command | null }): string {
    if (!isSyntaxFailure(error)) return nameOptionValues(super.error(error, options))
    const label = this.format(options?.colored).error('Usage Error')
    return `${label}: ${this.explainSyntax(error)}\n`
  }

  private explainSyntax(failure: SyntaxFailure): string {
    const binary = this.binaryName
    const input = failure.input.filter((token) => token !== '\u0000')
    const usages = [...new Set(failure.candidates.map(({ usage }) => nameOptionValues(usage)))]
    const paths = this.definitions()
      .map(({ path }) => path.replace(new RegExp(`^${binary} `), ''))
      .filter((path) => !path.startsWith('-'))
    const pathOf = (usage: string) => paths.find((path) => usage.startsWith(`${binary} ${path}`)) ?? ''
    const commands = [...new Set(usages.map(pathOf))]
    const help = (path: string) => `Run \`${binary} ${path}${path ? ' ' : ''}--help\``
    if (commands.length === 1 && commands[0] !== '' && input.join(' ').startsWith(commands[0]!)) {
      // The command is right; an option or an argument is not.
      const command = commands[0]!
      const usage = `Usage: ${usages[0]}`
      const reason = failure.candidates[0]?.reason ?? ''
      const unknownOption = /^Unsupported option name \("([^"]+)"\)/.exec(reason)?.[1]
      if (unknownOption) {
        const known = [...new Set(usages.join(' ').match(/--?[a-zA-Z][\w-]*/g) ?? [])]
        const suggestion = closestName(unknownOption.replace(/=.*/, ''), known)
        return `\`${binary} ${command}\` has no option ${unknownOption}${suggestion ? `; did you mean ${suggestion}?` : ''}\n\n${usage}\n${help(command)} for every option.`
      }
      const extra = /^Extraneous positional argument \("([^"]+)"\)/.exec(reason)?.[1]
      const missing = usages[0]?.match(/<[^>]+>(?=\s|$)/g)?.filter((name) => !/--\S+ $/.test(name))
      const what = extra
        ? `\`${binary} ${command}\` takes no argument "${extra}"`
        : /^Not enough positional arguments/.test(reason) && missing?.length
          ? `\`${binary} ${command}\` needs ${missing.join(' ')}`
          : reason
            ? `\`${binary} ${command}\`: ${reason.replace(/\.$/, '').replace(/^\w/, (c) => c.toLowerCase())}`
            : `\`${binary} ${command}\` does not take these arguments (${input.slice(command.split(' ').length).join(' ')})`
      return `${what}\n\n${usage}\n${help(command)} for details.`
    }
    // An unknown command: suggest the closest by its words, not every command there is.
    const words = input.filter((token) => !token.startsWith('-'))
    const typed = (path: string) => words.slice(0, path.split(' ').length).join(' ')
    let best: string | undefined
    let bestDistance = Number.POSITIVE_INFINITY
    for (const path of paths) {
      const d = distance(typed(path).toLowerCase(), path)
      if (d < bestDistance) [best, bestDistance] = [path, d]
    }
    const near =
      best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined
    const shown = words.slice(0, 2).join(' ') || input.join(' ')
    const group = paths.filter((path) => words.length === 1 && path.startsWith(`${words[0]} `))
    if (group.length > 0)
      return `\`${binary} ${words[0]}\` needs one of: ${group.map((path) => path.split(' ').at(-1)).join(', ')}\n${help('')} to list every command.`
    return `Unknown command "${shown}"${near ? `; did you mean \`${binary} ${near}\`?` : ''}\n${help('')} to list every command.`
  }
}
