/**
 * The compiler's only input and output: maps of POSIX path (relative to the docs root, no leading
 * slash, no `..`) to bytes. Reading a folder into one of these is the caller's job (cli, server).
 */
export type SourceFiles = ReadonlyMap<string, Uint8Array>
export type SiteFiles = Map<string, Uint8Array>

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Decode UTF-8 strictly; `undefined` when the bytes are not valid UTF-8 (the caller reports it). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    const text = decoder.decode(bytes)
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  } catch {
    return undefined
  }
}

/** A relative path is safe when it stays inside the root: no `..`, no absolute, no backslash, no NUL. */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024) return false
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}
