/**
 * Every message a bad setting stops the server with, worded in one place: each names the flag and the
 * environment variable (`--port / PORT: …`) and says what to write instead. Parsers and rules describe
 * the problem; this module turns it into the sentence an operator reads.
 */
import { distance } from 'fastest-levenshtein'

/** A setting with a bad value, or settings that do not fit together; the message says what to fix. */
export class ConfigError extends Error {}

/** What a message needs to name a setting. */
export interface NamedSetting {
  flag: string
  env: string
}

/** `--port / PORT`: how every message names a setting. */
export const settingLabel = (setting: NamedSetting): string => `--${setting.flag} / ${setting.env}`

/**
 * A value a parser refuses: `fix` is the phrase after the setting's label (`expected a whole number
 * from 0 to 65535, got "eighty"`). Parsers throw it; readSettings adds the label.
 */
export class ValueRejected extends Error {
  constructor(readonly fix: string) {
    super(fix)
  }
}

/** `expected <what>, got "<text>"`: the usual phrase a parser rejects a value with. */
export const expected = (what: string, text: string): ValueRejected =>
  new ValueRejected(`expected ${what}, got "${text}"`)

/** A value of one setting, refused: `--port / PORT: expected …`. */
export const badValue = (setting: NamedSetting, fix: string): ConfigError =>
  new ConfigError(`${settingLabel(setting)}: ${fix}`)

/** Settings that only work together: `--a / A and --b / B: set both, or neither …`. */
export const badCombination = (settings: readonly NamedSetting[], fix: string): ConfigError =>
  new ConfigError(`${settings.map(settingLabel).join(' and ')}: ${fix}`)

/** `OpenID Connect sign-in needs --a, --b and --c (A, B, C)`: a feature set halfway. */
export const incomplete = (feature: string, settings: readonly NamedSetting[]): ConfigError => {
  const flags = settings.map((setting) => `--${setting.flag}`)
  const listed = `${flags.slice(0, -1).join(', ')}${flags.length > 1 ? ' and ' : ''}${flags.at(-1) ?? ''}`
  return new ConfigError(`${feature} needs ${listed} (${settings.map((setting) => setting.env).join(', ')})`)
}

/** Two features of which only one may be on: `Both A (--a-*) and B (--b-*) … are configured; keep one`. */
export const conflicting = (first: string, second: string, what: string): ConfigError =>
  new ConfigError(`Both ${first} and ${second} ${what} are configured; keep one`)

/** A command-line that parseArgs refuses (an unknown option, a flag without its value). */
export const badCommandLine = (reason: string): ConfigError =>
  new ConfigError(`${reason}. Run docs-server --help for the options.`)

/** An option docs-server does not have: `Unknown option --prot (did you mean --port?)`. */
export function unknownOption(option: string, flags: readonly string[]): ConfigError {
  const name = option.replace(/=.*/, '')
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const flag of flags) {
    const d = distance(name, flag)
    if (d < bestDistance) [best, bestDistance] = [flag, d]
  }
  const near = best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))
  return badCommandLine(`Unknown option ${name}${near ? ` (did you mean ${best}?)` : ''}`)
}
