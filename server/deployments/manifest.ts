/**
 * What a deployment's manifest may name: the rules every way of deploying (REST uploads, Git commits)
 * applies to a file path before it is stored.
 */
import { isSafeRelativePath } from '../../compiler/files.js'
import type { ManifestIssue } from './errors.js'

/** Why a manifest path cannot be a site file, or undefined when it can. */
export function manifestPathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'must not contain NUL'
  if (path.includes('\\')) return 'must use "/" separators, not backslashes'
  if (path.startsWith('/')) return 'must be relative (no leading "/")'
  if (/[#?]/.test(path)) return 'must not contain "#" or "?"'
  if (!isSafeRelativePath(path)) return 'must stay inside the docs folder: no empty, "." or ".." segments'
  return undefined
}

/**
 * Every file of a manifest that breaks a rule, in manifest order: a path that cannot be a site file,
 * a path listed twice, a file over `maxFileBytes`.
 */
export function manifestIssues(
  files: readonly { path: string; size: number }[],
  maxFileBytes: number,
): ManifestIssue[] {
  const issues: ManifestIssue[] = []
  const seen = new Set<string>()
  files.forEach(({ path, size }, index) => {
    const rule = manifestPathProblem(path)
    if (rule) issues.push({ index, path, problem: 'path', rule })
    else if (seen.has(path)) issues.push({ index, path, problem: 'duplicate' })
    seen.add(path)
    if (size > maxFileBytes) issues.push({ index, path, problem: 'size', size, limit: maxFileBytes })
  })
  return issues
}
