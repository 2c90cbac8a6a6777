/**
 * Where a snippet import may point: only MDX files inside the site, site-absolute (`/snippets/x.mdx`,
 * `/components/x.mdx`) or relative to the importing file. The path is normalised first and anything
 * that leaves the site is refused, so no module outside the site (and no code) is ever loaded.
 */
import { isSafeRelativePath } from '../files.js'

export function resolveSnippetPath(source: string, fromFile: string): string | undefined {
  return /\.mdx?$/.test(source) ? resolveModulePath(source, fromFile) : undefined
}

/**
 * Where an import in code may point (see code-modules.ts): the same places as a snippet, and also
 * `.jsx`, `.tsx` and `.js` files. Any folder of the site (`/components/x.jsx`, `../shared/y.jsx`), as
 * the hosted platform allows; nothing outside it (`..` past the root is refused after normalising).
 */
export function resolveModulePath(source: string, fromFile: string): string | undefined {
  if (!/\.(mdx?|jsx|tsx|m?js)$/.test(source)) return undefined
  let path: string
  if (source.startsWith('/')) path = joinPath('', source.slice(1))
  else if (source.startsWith('./') || source.startsWith('../')) {
    path = joinPath(fromFile.split('/').slice(0, -1).join('/'), source)
  } else return undefined
  return isSafeRelativePath(path) ? path : undefined
}

/** What an import without an extension may name, in the order the format's tooling tries them. */
const IMPORT_EXTENSIONS = ['.mdx', '.md', '.jsx', '.tsx', '.js', '.mjs']

/**
 * An import specifier without an extension (`/snippets/card`, `./parts/intro`) with the one the
 * file it names has, as the format's tooling resolves it: the file with one of IMPORT_EXTENSIONS,
 * else the folder's `index` file (`/snippets/card/index.jsx`). Any other specifier, or one naming no
 * file of the site, is returned as it is.
 */
export function withImportExtension(
  source: string,
  fromFile: string,
  exists: (path: string) => boolean,
): string {
  if (/\.(mdx?|jsx|tsx|m?js)$/.test(source)) return source
  const bare = source.replace(/\/+$/, '')
  const suffixes = [
    ...(bare === source ? IMPORT_EXTENSIONS : []),
    ...IMPORT_EXTENSIONS.map((extension) => `/index${extension}`),
  ]
  for (const suffix of suffixes) {
    const path = resolveModulePath(`${bare}${suffix}`, fromFile)
    if (path !== undefined && exists(path)) return `${bare}${suffix}`
  }
  return source
}

/**
 * `<Snippet file="x.mdx" />` reads from the site's snippets folder: `snippets/x.mdx`, else
 * `_snippets/x.mdx` (both names are in use). Returns the first that exists, or the first candidate.
 */
export function snippetFilePath(file: string, exists: (path: string) => boolean): string | undefined {
  const trimmed = file.replace(/^\/+/, '')
  const candidates =
    trimmed.startsWith('snippets/') || trimmed.startsWith('_snippets/')
      ? [trimmed]
      : [`snippets/${trimmed}`, `_snippets/${trimmed}`]
  const safe = candidates.filter((path) => isSafeRelativePath(path) && /\.mdx?$/.test(path))
  return safe.find(exists) ?? safe[0]
}

/** Join a folder and a relative path, resolving `.` and `..`; `..` beyond the root stays as `..`. */
export function joinPath(folder: string, relative: string): string {
  const parts = folder ? folder.split('/') : []
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (parts.length === 0 || parts[parts.length - 1] === '..') parts.push('..')
      else parts.pop()
    } else parts.push(segment)
  }
  return parts.join('/')
}
