/** An API token for a bench's own docs-server: `docs-server token create` on the same settings, before it starts. */
import { execFileSync } from 'node:child_process'

export function createServerToken(serverMain: string, settings: readonly string[]): string {
  const printed = execFileSync(process.execPath, [
    serverMain,
    'token',
    'create',
    '--email',
    'bench@example.com',
    ...settings,
  ])
  const token = printed.toString().trim().split('\n').at(-1)
  if (!token) throw new Error('docs-server token create printed no token')
  return token
}
