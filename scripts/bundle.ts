/**
 * `npm run build`'s step after tsc: what starts most often, bundled by esbuild from tsc's output into
 * dist/bundle/ (the same paths below it: dist/bundle/cli/main.js…), split into shared chunks:
 * - `docsctl` (cli/main.js) and `docs-server` (server/main.js), the package's bins, which every terminal
 *   command, CI job and server start runs;
 * - the modules build and page threads load (compiler/pool/render-worker.js, compiler/build.js), which a
 *   server or `docsctl build` starts a few of (compiler/pool/worker-modules.ts finds them).
 * A process that imports some 500–700 modules one by one spends most of its start resolving, reading and
 * compiling them: a page thread took 0.85 CPU-s to load the renderer unbundled and takes 0.2 s bundled.
 * Output is the same either way (test/compiler/pool/worker-modules.test.ts, test/cli/bundle.test.ts).
 *
 * Left outside the bundle, loaded from node_modules as before: packages that find files of their own
 * beside their code at run time (QuickJS's .wasm, shiki's grammars, `open`'s xdg-open, playwright,
 * piscina's worker, Tailwind's and lightningcss's native parts), and packages only the server loads.
 */
import { rm } from 'node:fs/promises'
import { type BuildOptions, build } from 'esbuild'
import { BUNDLE_DIR } from '../compiler/pool/worker-modules.js'
import { fromPackageRoot } from '../lib/package-root.js'

const externalPackages = [
  'shiki',
  '@shikijs/*',
  '@jitl/*',
  'quickjs-emscripten-core',
  'open',
  'playwright-core',
  'piscina',
  'tailwindcss',
  '@tailwindcss/*',
  'lightningcss',
  'lightningcss-*',
  'esbuild',
  'better-sqlite3',
  'pg',
  'json-schema-to-typescript',
  // Each reads a file of its own package (package.json, worker files) at run time.
  '@fastify/swagger',
  'ioredis',
  // pino finds its transports' and thread-stream's worker files beside its code.
  'pino',
  'pino-*',
  'thread-stream',
]

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ESM builds first: some packages' `main` is a UMD wrapper whose requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  external: externalPackages,
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  logLevel: 'warning',
} as const satisfies BuildOptions

const outdir = fromPackageRoot(...BUNDLE_DIR)
await rm(outdir, { recursive: true, force: true })
await build({
  ...common,
  entryPoints: ['cli/main.js', 'compiler/pool/render-worker.js', 'compiler/build.js'].map((entry) =>
    fromPackageRoot('dist', entry),
  ),
  outbase: fromPackageRoot('dist'),
  outdir,
  splitting: true,
})
// docs-server is one file of its own: with no chunk to import, the first module it runs is its first
// import, server/ops/hot-path-shapes.js, before the API loads (PERFORMANCE.md, entry 3).
await build({
  ...common,
  entryPoints: [fromPackageRoot('dist', 'server', 'main.js')],
  outfile: fromPackageRoot(...BUNDLE_DIR, 'server', 'main.js'),
})
