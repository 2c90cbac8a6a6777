/**
 * The layers of ARCHITECTURE.md, checked over the import graph of the sources: folders only import
 * downwards (lib ← schemas ← compiler ← serving ← server, cli), no folder imports one that imports it back, and
 * only the app and plugins register routes (a service never imports a route). A new import that breaks
 * a rule fails here with the file and the import.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../lib/package-root.js'

const LAYERS = ['lib', 'schemas', 'compiler', 'serving', 'server', 'cli'] as const
type Layer = (typeof LAYERS)[number]

/** What each folder may import, besides itself. */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  lib: [],
  schemas: ['lib'],
  compiler: ['lib', 'schemas'],
  // What the server and `docsctl dev` both answer with: routing a built site, its MCP endpoint, 404s.
  serving: ['lib', 'schemas', 'compiler'],
  server: ['lib', 'schemas', 'compiler', 'serving'],
  // The CLI speaks to the server through the REST schemas only, never through its code.
  cli: ['lib', 'schemas', 'compiler', 'serving'],
}

const root = fromPackageRoot()

function sources(folder: string): string[] {
  return (
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      // Browser bundles (the theme's and the dashboard's client) are built on their own.
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !/(^|\/)client\//.test(path))
      .map((path) => join(folder, path).split(sep).join('/'))
  )
}

/**
 * Relative imports (static, dynamic and re-exports) of one file, as paths from the package root;
 * `runtime` leaves out `import type`, which the compiled code does not keep.
 */
function importsOf(file: string, runtime = false): string[] {
  return importsIn(readFileSync(join(root, file), 'utf8'), file, runtime)
}

function importsIn(text: string, file: string, runtime: boolean): string[] {
  // An `import type` ends at its first module name: the statements carry no semicolons to stop at.
  const pattern = /(import\s+type\s[^;'"]*?from\s+|from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g
  return [...text.matchAll(pattern)]
    .filter((match) => !runtime || !match[1]!.startsWith('import type'))
    .map((match) =>
      relative(root, normalize(join(root, dirname(file), match[2]!)))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts'),
    )
}

test('an import after a type import of a package is a runtime import', () => {
  const text = "import type { Root } from 'hast'\nimport { siteRedirects } from '../config/index.js'\n"
  assert.deepEqual(importsIn(text, 'compiler/content/rehype-links.ts', true), ['compiler/config/index.ts'])
  assert.deepEqual(importsIn("import type { A } from './a.js'\n", 'compiler/x.ts', true), [])
})

const files = LAYERS.flatMap((layer) => sources(layer))
const graph = new Map(files.map((file) => [file, importsOf(file)]))
const runtimeGraph = new Map(files.map((file) => [file, importsOf(file, true)]))

/**
 * Cycles between folders still to be taken apart: none today. A new one fails the test; were one ever
 * listed here, it would fail once gone (so the list only shrinks).
 */
const KNOWN_CYCLES: readonly string[] = []

const layerOf = (path: string): string => path.split('/')[0]!

test('folders import only the layers below them', () => {
  const upward: string[] = []
  for (const [file, imports] of graph) {
    const from = layerOf(file) as Layer
    for (const target of imports) {
      const to = layerOf(target)
      if (to !== from && !ALLOWED[from].includes(to as Layer)) upward.push(`${file} imports ${target}`)
    }
  }
  assert.deepEqual(upward, [])
})

test('only the app and plugins import routes: services never do', () => {
  const found = [...graph]
    .filter(
      ([file]) =>
        !file.startsWith('server/routes/') && file !== 'server/app.ts' && !file.endsWith('/plugin.ts'),
    )
    .flatMap(([file, imports]) =>
      imports
        .filter((target) => target.startsWith('server/routes/'))
        .map((target) => `${file} imports ${target}`),
    )
  assert.deepEqual(found, [])
})

test('no new cycle between the folders of server/ and of compiler/ (in imports the compiled code keeps)', () => {
  // Folder-level edges (server/builds → server/db), each with one import that makes it.
  const edges = new Map<string, Map<string, string>>()
  const folderOf = (path: string): string => path.split('/').slice(0, 2).join('/').replace(/\.ts$/, '')
  for (const [file, imports] of runtimeGraph) {
    if (!file.startsWith('server/') && !file.startsWith('compiler/')) continue
    for (const target of imports) {
      const [from, to] = [folderOf(file), folderOf(target)]
      if (from === to || layerOf(from) !== layerOf(to)) continue
      if (!edges.has(from)) edges.set(from, new Map())
      edges.get(from)!.set(to, `${file} → ${target}`)
    }
  }
  const cycles = new Map<string, string>()
  for (const [from, targets] of edges)
    for (const [to, why] of targets) {
      const back = edges.get(to)?.get(from)
      if (back && from < to) cycles.set(`${from} ⇄ ${to}`, `${why}; ${back}`)
    }
  const added = [...cycles]
    .filter(([pair]) => !KNOWN_CYCLES.includes(pair))
    .map(([pair, why]) => `${pair}: ${why}`)
  assert.deepEqual(added, [], 'new cycles')
  assert.deepEqual(
    KNOWN_CYCLES.filter((pair) => !cycles.has(pair)),
    [],
    'cycles taken apart: remove them from KNOWN_CYCLES',
  )
})

/**
 * Storage sits under every service: at run time server/db imports its own files, the compiler and
 * these value modules (identifiers, token hashing, URL rules it normalises for uniqueness), never a
 * service, a route or the app.
 */
const STORAGE_MAY_IMPORT = [
  'server/ids.ts',
  'server/tokens.ts',
  'server/sites/preview-token.ts',
  'server/git/repository.ts',
]

test('storage imports no service: server/db reads only its own files and value modules', () => {
  const found = [...runtimeGraph]
    .filter(([file]) => file.startsWith('server/db/'))
    .flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            target.startsWith('server/') &&
            !target.startsWith('server/db/') &&
            !STORAGE_MAY_IMPORT.includes(target),
        )
        .map((target) => `${file} imports ${target}`),
    )
  assert.deepEqual(found, [])
})
