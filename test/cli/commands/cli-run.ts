/** Runs the built `docsctl` binary as a user would, without colours, and captures what it prints. */
import { spawn, spawnSync } from 'node:child_process'
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

/** `runCli`, spawned: for tests whose own server must answer while docsctl runs. */
export function runCliAsync(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtBinary('docsctl'), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}
