/**
 * How the project commands print and ask: JSON for scripts, aligned tables and short lines for people,
 * and one confirmation rule for anything that changes a live site or deletes something.
 */
import * as prompts from '@clack/prompts'
import type { BaseContext } from 'clipanion'
import type { Deployment } from './api.js'
import { CommandFailure } from './auth/failure.js'
import { isInteractive } from './push/project.js'

export { table } from './domains/format.js'

export function printJson(context: BaseContext, value: unknown): void {
  context.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** `2026-11-23T12:01:02.345Z` → `2026-11-23 12:01 UTC`: enough to tell deployments apart at a glance. */
export const shortTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/** The first line of a commit message, cut to fit a table column. */
export function firstLine(text: string | null, width = 50): string {
  const line = (text ?? '').split('\n')[0]!.trim()
  return line.length > width ? `${line.slice(0, width - 1)}…` : line
}

/** `ready, live` / `failed` / `ready`: what a person needs to know about one deployment. */
export const deploymentState = (deployment: Pick<Deployment, 'status' | 'live'>): string =>
  deployment.live ? `${deployment.status}, live` : deployment.status

/**
 * Go ahead only when `--yes` was given or a person in a terminal says yes. Without a terminal and
 * without `--yes` this fails with the flag to pass, so a script never hangs on a question.
 */
export async function confirmAction(input: {
  yes: boolean
  question: string
  action: string
}): Promise<void> {
  if (input.yes) return
  if (!isInteractive(Boolean(process.env.CI)))
    throw new CommandFailure(
      `${input.action} needs confirmation. Run it in a terminal, or pass --yes in a script.`,
    )
  const answer = await prompts.confirm({ message: input.question, initialValue: false })
  if (prompts.isCancel(answer) || !answer) throw new CommandFailure('Cancelled; nothing changed.')
}
