/** Where the package's own files are, from compiled `dist/` and from sources alike. */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cachedRoot: string | undefined

/**
 * The package root (the folder holding package.json), found by walking up from this file, so that
 * schemas/, fixtures/ and compiler/theme/assets/ resolve both from compiled `dist/` and from sources.
 */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('package.json not found above lib/package-root')
    dir = parent
  }
  cachedRoot = dir
  return dir
}

export const fromPackageRoot = (...segments: string[]): string => join(packageRoot(), ...segments)
