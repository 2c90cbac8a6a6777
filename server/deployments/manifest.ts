/**
 * What a deployment's manifest may name: the rules every way of deploying (REST uploads, Git commits)
 * applies to a file path before it is stored.
 */
import { isSafeRelativePath } from '../../compiler/files.js'

/** Why a manifest path cannot be a site file, or undefined when it can. */
export function manifestPathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'must not contain NUL'
  if (path.includes('\\')) return 'must use "/" separators, not backslashes'
  if (path.startsWith('/')) return 'must be relative (no leading "/")'
  if (/[#?]/.test(path)) return 'must not contain "#" or "?"'
  if (!isSafeRelativePath(path)) return 'must stay inside the docs folder: no empty, "." or ".." segments'
  return undefined
}
