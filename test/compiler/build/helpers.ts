/** Shared by the build tests: read a fixture folder into a file map, and check a built site's links. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fromPackageRoot } from '../../../compiler/assets.js'

export const shellSiteDir = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'shell-site')

export function readFixture(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(path)
      else files.set(path, new Uint8Array(readFileSync(join(dir, path))))
    }
  }
  walk('')
  return files
}

export const text = (files: ReadonlyMap<string, Uint8Array>, path: string): string => {
  const bytes = files.get(path)
  if (!bytes) throw new Error(`${path} was not built; built: ${[...files.keys()].join(', ')}`)
  return new TextDecoder().decode(bytes)
}

/** Every href/src of an HTML file, in order. */
export const linksOf = (html: string): string[] =>
  [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'))

/**
 * Links that leave the site or stay on the page need no file; every other link must be relative and
 * resolve to a built file (`dir/` meaning `dir/index.html`). Returns the problems found.
 */
export function brokenLinks(files: ReadonlyMap<string, Uint8Array>): string[] {
  const problems: string[] = []
  for (const [path, bytes] of files) {
    if (!path.endsWith('.html')) continue
    for (const link of linksOf(new TextDecoder().decode(bytes))) {
      if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(link)) continue
      if (link.startsWith('/')) {
        problems.push(`${path}: absolute link ${link}`)
        continue
      }
      const target = link.split('#')[0]!.split('?')[0]!
      if (target === '') continue
      const resolved = posix.normalize(posix.join(posix.dirname(path), target))
      const file = target.endsWith('/') || resolved === '.' ? posix.join(resolved, 'index.html') : resolved
      if (file.startsWith('..') || !files.has(file)) problems.push(`${path}: ${link} → ${file} is missing`)
    }
  }
  return problems
}
