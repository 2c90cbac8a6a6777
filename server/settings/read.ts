/**
 * Settings text → typed values, by the table: each setting's text is its flag, else its environment
 * variable, else its default (an empty text counts as unset), and its parser makes the value. A value a
 * parser refuses stops here with the message errors.ts words; the rules between settings are checked
 * last (rules.ts).
 */
import { badValue, ValueRejected } from './errors.js'
import { checkSettingRules } from './rules.js'
import { type SettingName, type SettingSpec, type SettingValues, settingNames, settings } from './table.js'

/**
 * The typed value of every setting. `given` returns what the flag or the variable of a setting says
 * (flags win), or undefined.
 */
export function readSettings(given: (setting: SettingSpec<unknown>) => string | undefined): SettingValues {
  const textOf = (name: SettingName): string | undefined => {
    const setting: SettingSpec<unknown> = settings[name]
    const text = given(setting)
    if (text !== undefined && text.trim() !== '') return text
    const fallback = setting.default
    if (typeof fallback !== 'object') return fallback
    return fallback.value((other) => (other in settings ? textOf(other as SettingName) : undefined))
  }
  const values: Partial<Record<SettingName, unknown>> = {}
  for (const name of settingNames) {
    const setting: SettingSpec<unknown> = settings[name]
    const text = textOf(name)
    try {
      values[name] = text === undefined ? undefined : setting.parse.parse(text)
    } catch (error) {
      if (error instanceof ValueRejected) throw badValue(setting, error.fix)
      throw error
    }
  }
  const typed = values as SettingValues
  checkSettingRules(typed)
  return typed
}

/** What the flags (parsed by node:util parseArgs) or else the environment say of a setting. */
export function flagsThenEnvironment(
  flags: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>,
  env: NodeJS.ProcessEnv,
): (setting: SettingSpec<unknown>) => string | undefined {
  return (setting) => {
    const flag = flags[setting.flag]
    return typeof flag === 'string' ? flag : env[setting.env]
  }
}
