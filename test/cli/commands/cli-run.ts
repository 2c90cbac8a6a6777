/** Runs the built `docsctl` binary as a user would, without colours, and captures what it prints. */
import { spawnSync } from 'node:child_process'
import { builtBinary } from '../../tier.js'

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

export function runCli(args: string[], cwd: string, env: Record<string, string> = {}): CliRun {
  const result = spawnSync(process.execPath, [builtBinary('docsctl'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    input: '',
    timeout: 30_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
