/**
 * The Content-Type of a site file, by its name: the server records it in the site manifest at build
 * time and `docsctl dev` sends it, so both answer a file alike.
 */
import mime from 'mime-types'

export function contentTypeOf(path: string): string {
  if (path.endsWith('.md')) return 'text/markdown; charset=utf-8'
  const type = mime.lookup(path) || 'application/octet-stream'
  return /^text\/|javascript|json|xml|svg/.test(type) ? `${type}; charset=utf-8` : type
}
