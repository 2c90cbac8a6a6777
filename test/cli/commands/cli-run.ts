/** Runs the built `docsctl` binary as a user would, without colours, and captures what it prints. */
import { spawnSync } from 'node:child_process'
import { fromPackageRoot } from '../../../compiler/assets.js'

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

export function runCli(args: string[], cwd: string, env: Record<string, string> = {}): CliRun {
  const result = spawnSync(process.execPath, [fromPackageRoot('dist', 'cli', 'main.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    input: '',
    timeout: 30_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
