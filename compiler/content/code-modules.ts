/**
 * Code modules: the JavaScript of a page or snippet that defines components (`export const X = () =>
 * <div/>`, `function`s, helpers), and `.jsx`/`.tsx`/`.js` snippet files. Each is compiled once per
 * page with sucrase (JSX to `__jsx(...)` calls, imports to `require`, types stripped, lines kept) so
 * it can run in the page's sandbox (compiler/sandbox/). Nothing here runs author code.
 */
import { createRequire } from 'node:module'
import { LRUCache } from 'lru-cache'
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm'
import { decodeUtf8 } from '../files.js'
import type { PageContext } from './context.js'
import { report } from './context.js'
import { resolveModulePath, withImportExtension } from './snippet-paths.js'
import type { StaticObject, StaticValue } from './static-value.js'

/** Marks a scope binding that names a component defined in code: `{ $$code: true, file, name }`. */
export const CODE_COMPONENT = '$$code'

export interface CodeComponentRef {
  [CODE_COMPONENT]: true
  /** The module's site path. */
  file: string
  /** The export's name (`default` for a default import). */
  name: string
  /** The file whose element uses it (a page or snippet), for diagnostics. */
  usedIn?: string
}

export const codeComponentRef = (file: string, name: string): StaticObject => ({
  [CODE_COMPONENT]: true,
  file,
  name,
})

export const isCodeComponentRef = (value: StaticValue): value is StaticObject & CodeComponentRef =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  value[CODE_COMPONENT] === true &&
  typeof value.file === 'string' &&
  typeof value.name === 'string'

export interface CodeModule {
  file: string
  /** Compiled CommonJS, with the source's line numbers; undefined when the source did not compile. */
  code?: string
  /** Import specifier → site path of another code module. */
  imports: Record<string, string>
}

/** Modules one page may load, counting each file once: real sites use one or two. */
export const MAX_CODE_MODULES = 64

/**
 * Compiled code by file and source, per thread: a snippet used by many pages compiles once. An entry
 * is the code, or the compile error's message.
 */
const compiled = new LRUCache<string, { code: string } | { error: string }>({
  max: 512,
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (value, key) => key.length + ('code' in value ? value.code.length : value.error.length),
})

/** sucrase, loaded on the first code module, so threads that render only plain pages never load it. */
let sucrase: typeof import('sucrase') | undefined

function compile(file: string, source: string): { code: string } | { error: string } {
  const key = `${file}\0${source}`
  let result = compiled.get(key)
  if (!result) {
    sucrase ??= createRequire(import.meta.url)('sucrase') as typeof import('sucrase')
    const { transform } = sucrase
    try {
      result = {
        code: transform(source, {
          transforms: /\.tsx?$/.test(file) ? ['typescript', 'jsx', 'imports'] : ['jsx', 'imports'],
          jsxRuntime: 'classic',
          jsxPragma: '__jsx',
          jsxFragmentPragma: '__Fragment',
          production: true,
          filePath: file,
        }).code,
      }
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) }
    }
    compiled.set(key, result)
  }
  return result
}

/** Extensions of files that are code modules as a whole. */
export const CODE_FILE = /\.(jsx|tsx|js|mjs)$/

/** The ESM blocks of an MDX file as one source, each block on its original lines. */
export function esmSource(nodes: readonly MdxjsEsm[]): string {
  let source = ''
  let line = 1
  for (const node of nodes) {
    const start = node.position?.start.line ?? line
    if (start > line) {
      source += '\n'.repeat(start - line)
      line = start
    }
    source += `${node.value}\n`
    line += node.value.split('\n').length
  }
  return source
}

/**
 * Register a code module from source (and, through its imports, the modules it needs). `read` gives
 * the ESM source of another file: the whole file for `.jsx`, the ESM blocks for `.mdx`.
 */
export function registerCodeModule(
  page: PageContext,
  file: string,
  source: string,
  read: (path: string) => string | undefined,
): void {
  const modules = page.codeModules
  if (modules.has(file)) return
  const module: CodeModule = { file, imports: {} }
  modules.set(file, module)
  if (modules.size > MAX_CODE_MODULES) {
    report(
      page,
      'problem',
      'code-component',
      `Unexpected ${modules.size}th code module on one page at ${file}, expected at most ${MAX_CODE_MODULES}`,
      undefined,
      file,
    )
    return
  }
  const result = compile(file, source)
  if ('error' in result) {
    const message = result.error
    const place = /\((\d+):(\d+)\)/.exec(message)
    report(
      page,
      'problem',
      'code-component',
      `Unexpected syntax in code: ${message.replace(/\s*\(\d+:\d+\)$/, '')}; its components are left out`,
      place ? { line: Number(place[1]), column: Number(place[2]) + 1 } : undefined,
      file,
    )
    return
  }
  const code = result.code
  module.code = code
  const lines = code.split('\n')
  lines.forEach((text, index) => {
    for (const match of text.matchAll(/\brequire\((['"])([^'"]*)\1\)/g)) {
      const specifier = match[2] ?? ''
      if (specifier === 'react' || specifier === 'react/jsx-runtime') continue
      const path = resolveModulePath(
        withImportExtension(specifier, file, (candidate) => read(candidate) !== undefined),
        file,
      )
      const imported = path === undefined ? undefined : read(path)
      if (path === undefined || imported === undefined) {
        report(
          page,
          'problem',
          'import-not-allowed',
          `Unexpected import of "${specifier}" in code, expected a file inside the site (a site path such as \`/components/x.jsx\`, or a relative path) or "react"; it is not available to components`,
          { line: index + 1 },
          file,
        )
        continue
      }
      module.imports[specifier] = path
      registerCodeModule(page, path, imported, read)
    }
  })
}

/** The source of a code module file: a `.jsx`/`.tsx` file as it is, an `.mdx` file's ESM blocks. */
export function codeSourceOf(
  page: PageContext,
  path: string,
  esmOf: (text: string) => readonly MdxjsEsm[],
): string | undefined {
  const bytes = page.files.get(path)
  if (!bytes) return undefined
  page.dependencies.add(path)
  const text = decodeUtf8(bytes)
  if (text === undefined) return undefined
  if (CODE_FILE.test(path)) return text
  try {
    return esmSource(esmOf(text))
  } catch {
    return undefined
  }
}
