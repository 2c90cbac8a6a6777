/**
 * CI's supply-chain check, run by `.ci/run` after `npm ci` and before `npm test`:
 *
 * 1. Offline, always: every package in package-lock.json comes from the npm registry with a sha512
 *    `integrity` (which `npm ci` checks each tarball against), and the installed tree is the locked one.
 * 2. `npm audit signatures`: the registry's signature (and any provenance attestation) of every installed
 *    package, against the registry's public keys. It needs the registry's keys and Sigstore's TUF
 *    repository; when it cannot reach them that is said plainly, the check is skipped and CI goes on.
 *    An invalid or missing signature fails CI.
 * 3. `npm audit --omit=dev`: known advisories of the packages a user installs. A high or critical one
 *    fails CI; when the registry refuses or cannot answer the advisory call (this workplace's mirror
 *    answers 405), that is said plainly and CI goes on.
 *
 * `node dist/lib/dependency-check.js [folder]` (the folder holding package-lock.json, default `.`).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const registry = 'https://registry.npmjs.org/'

interface LockedPackage {
  name?: string
  version?: string
  resolved?: string
  integrity?: string
  link?: boolean
  inBundle?: boolean
  optional?: boolean
}

/** The name and version of an installed package, or `undefined` when the folder has none. */
export type InstalledPackage = (path: string) => { name?: string; version?: string } | undefined

/** Reads `<root>/<path>/package.json`. */
export const installedIn =
  (root: string): InstalledPackage =>
  (path) => {
    try {
      return JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')) as {
        name?: string
        version?: string
      }
    } catch {
      return undefined
    }
  }

/** The package name a lock entry's path installs (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOfPath = (path: string): string =>
  path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)

/** What is wrong with a lockfile and the tree installed from it, one line a problem (empty when fine). */
export function lockfileProblems(lock: unknown, installed: InstalledPackage): string[] {
  const packages = (lock as { packages?: Record<string, LockedPackage> } | null)?.packages
  if (!packages || typeof packages !== 'object')
    return ['package-lock.json has no "packages" (lockfileVersion 2 or later is needed)']
  const problems: string[] = []
  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link || entry.inBundle) continue
    const name = entry.name ?? nameOfPath(path)
    const where = `${path} (${name}@${entry.version ?? '?'})`
    if (entry.resolved !== undefined && !entry.resolved.startsWith(registry))
      problems.push(`${where} comes from ${entry.resolved}, not from ${registry}`)
    if (!/^sha512-[A-Za-z0-9+/]{86}==$/.test(entry.integrity ?? ''))
      problems.push(`${where} has no sha512 integrity in the lockfile`)
    const found = installed(path)
    if (!found) {
      if (!entry.optional) problems.push(`${where} is locked but not installed`)
    } else if (found.version !== entry.version || found.name !== name)
      problems.push(`${where} is locked, but ${found.name ?? '?'}@${found.version ?? '?'} is installed`)
  }
  return problems
}

export type AuditOutcome =
  | { kind: 'verified'; summary: string }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'failed'; reason: string }

/** Errors of the network or of a registry that has no signing keys: nothing in this repository to fix. */
const unreachable = [
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT|E50[0-4])\b/,
  /npm (?:error|ERR!) network/,
  /found no dependencies to audit that were installed from a supported registry/,
]

/** Reads what `npm audit signatures` did from its exit status and output (`null` status: it timed out). */
export function classifyAudit(status: number | null, output: string): AuditOutcome {
  const lines = output.split('\n').map((line) => line.trim())
  if (status === 0)
    return {
      kind: 'verified',
      summary: lines
        .filter((line) => /^(audited |\d+ packages? ha(?:s a|ve) verified registry signatures?$)/.test(line))
        .join('; '),
    }
  if (/(invalid|missing) (registry signature|attestation)/.test(output))
    return { kind: 'failed', reason: 'packages with invalid or missing registry signatures (see above)' }
  if (status === null) return { kind: 'unreachable', reason: 'no answer within the time limit' }
  if (unreachable.some((pattern) => pattern.test(output))) {
    const cause =
      lines.find((line) => /^npm (?:error|ERR!) network request/.test(line)) ??
      lines.find((line) => /^npm (?:error|ERR!) code/.test(line)) ??
      lines.find((line) => /found no dependencies/.test(line)) ??
      'a network error'
    return { kind: 'unreachable', reason: cause.replace(/^npm (?:error|ERR!) /, '') }
  }
  return { kind: 'failed', reason: lines.filter((line) => /^npm (?:error|ERR!)/.test(line)).join('; ') }
}

export type AdvisoryOutcome =
  | { kind: 'checked'; counts: Record<string, number> }
  | { kind: 'high'; counts: Record<string, number>; packages: string[] }
  | { kind: 'refused'; reason: string }

/** Reads what `npm audit --omit=dev --json` answered (`null` status: it timed out). */
export function classifyAdvisories(status: number | null, stdout: string, stderr: string): AdvisoryOutcome {
  if (status === null) return { kind: 'refused', reason: 'no answer within the time limit' }
  let report: {
    metadata?: { vulnerabilities?: Record<string, number> }
    vulnerabilities?: Record<string, { severity?: string }>
    error?: { code?: string; summary?: string }
  }
  try {
    report = JSON.parse(stdout) as typeof report
  } catch {
    report = {}
  }
  const counts = report.metadata?.vulnerabilities
  if (!counts) {
    const said = [report.error?.summary, ...stderr.split('\n')]
      .map((line) => line?.trim().replace(/^npm (?:warn|error|ERR!) /, ''))
      .find((line) => line && /\b(\d{3}|E[A-Z]+)\b/.test(line))
    return { kind: 'refused', reason: said ?? 'the advisory call gave no report' }
  }
  const packages = Object.entries(report.vulnerabilities ?? {})
    .filter(([, advisory]) => advisory.severity === 'high' || advisory.severity === 'critical')
    .map(([name, advisory]) => `${name} (${advisory.severity})`)
  return packages.length > 0 ? { kind: 'high', counts, packages } : { kind: 'checked', counts }
}

function advisories(root: string, retries: string[]): number {
  const audit = spawnSync('npm', ['audit', '--omit=dev', '--json', ...retries], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  })
  const outcome = classifyAdvisories(
    audit.error && audit.status === null ? null : audit.status,
    audit.stdout ?? '',
    audit.stderr ?? '',
  )
  const shown = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([severity]) => severity !== 'total')
      .map(([severity, count]) => `${count} ${severity}`)
      .join(', ')
  switch (outcome.kind) {
    case 'checked':
      process.stdout.write(
        `Supply chain: npm audit --omit=dev: ${shown(outcome.counts)}; none high or critical.\n`,
      )
      return 0
    case 'refused':
      process.stdout.write(
        `Supply chain: npm audit --omit=dev could not get the registry's advisories (${outcome.reason}); known advisories were NOT checked this run. Going on: this is the registry, not this repository.\n`,
      )
      return 0
    case 'high':
      process.stderr.write(
        `Supply chain: npm audit --omit=dev: high or critical advisories for ${outcome.packages.join(', ')}; update them (npm audit fix --omit=dev) or explain each in README.md.\n`,
      )
      return 1
  }
}

function main(root: string): number {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as unknown
  const problems = lockfileProblems(lock, installedIn(root))
  const count = Object.keys((lock as { packages: object }).packages).length - 1
  if (problems.length > 0) {
    process.stderr.write(
      `Supply chain: the lockfile check failed:\n${problems.map((p) => `  ${p}\n`).join('')}`,
    )
    return 1
  }
  process.stdout.write(
    `Supply chain: all ${count} locked packages come from ${registry} with a sha512 integrity, and the installed tree matches the lockfile.\n`,
  )
  // One retry, soon: an unreachable host should cost CI seconds, not the minutes of npm's default backoff.
  const retries = ['--fetch-retries=1', '--fetch-retry-mintimeout=2000', '--fetch-retry-maxtimeout=10000']
  const audit = spawnSync('npm', ['audit', 'signatures', ...retries], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  })
  const output = `${audit.stdout ?? ''}${audit.stderr ?? ''}`
  const outcome = classifyAudit(audit.error && audit.status === null ? null : audit.status, output)
  switch (outcome.kind) {
    case 'verified':
      process.stdout.write(`Supply chain: npm audit signatures: ${outcome.summary || 'verified'}.\n`)
      return advisories(root, retries)
    case 'unreachable':
      process.stdout.write(
        `Supply chain: npm audit signatures could not reach the registry's signing keys or Sigstore (${outcome.reason}); registry signatures were NOT verified this run. Going on: this is the network, not this repository.\n`,
      )
      return advisories(root, retries)
    case 'failed':
      process.stderr.write(`${output}\nSupply chain: npm audit signatures failed: ${outcome.reason}\n`)
      return 1
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv[2] ?? '.')
