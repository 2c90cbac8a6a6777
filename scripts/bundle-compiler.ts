/**
 * `npm run build`'s step after tsc: the modules worker threads load (the page renderer and `buildSite`)
 * bundled by esbuild from tsc's output into dist/compiler/bundle/, split into shared chunks so a build
 * thread that loads both holds one copy of the compiler. compiler/pool/worker-modules.ts picks the bundle
 * up; without it threads load the unbundled modules, with the same output (test/compiler/pool/bundle.test.ts).
 *
 * Left outside the bundle, loaded from node_modules as before: packages that find files of their own
 * beside their code at run time (QuickJS's .wasm for code components, shiki's grammars and themes, which
 * it imports one by one on demand).
 */
import { rm } from 'node:fs/promises'
import { build } from 'esbuild'
import { BUNDLE_DIR } from '../compiler/pool/worker-modules.js'
import { fromPackageRoot } from '../lib/package-root.js'

const externalPackages = ['shiki', '@shikijs/*', '@jitl/*', 'quickjs-emscripten-core']

const outdir = fromPackageRoot(...BUNDLE_DIR)
await rm(outdir, { recursive: true, force: true })
await build({
  entryPoints: [
    fromPackageRoot('dist', 'compiler', 'pool', 'render-worker.js'),
    fromPackageRoot('dist', 'compiler', 'build.js'),
  ],
  outbase: fromPackageRoot('dist', 'compiler'),
  outdir,
  bundle: true,
  splitting: true,
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
})
