/**
 * Packages most processes never call stay out of the start-up import graph of `docs-server` and
 * `docsctl` (lib/lazy-package.ts, dynamic imports): a child process imports each entry point with a hook
 * that records every module Node loads, and none of them may appear. A static import slipped back in
 * fails here, where `npm run bench:start` would only be slower.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import { lazyPackage } from '../../lib/lazy-package.js'
import { loadedModules } from '../loaded-modules.js'

/** Loaded on first use only: what each entry point must not load when it is imported. */
const lazy = {
  server: [
    'pg',
    'piscina',
    'diff',
    'tr46',
    'jsonc-parser',
    'pngjs',
    'pixelmatch',
    'openid-client',
    '@octokit/auth-app',
  ],
  cli: ['diff', 'tr46', 'cli-progress', 'open', 'pg', 'piscina'],
}

/** Package names of every module (ESM or CommonJS) a process loads while importing `entry`. */
async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  const { modules } = await loadedModules([
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(`file://${entry}`)})`,
  ])
  const names = new Set<string>()
  for (const line of modules) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)?.[1]
    if (name) names.add(name)
  }
  return names
}

test('the server and the CLI start without the packages they load on first use', async () => {
  const server = await packagesLoadedBy(fromPackageRoot('dist', 'server', 'app.js'))
  // The hook sees the graph: fastify is always there.
  assert.ok(server.has('fastify'), [...server].join(', '))
  assert.deepEqual(
    lazy.server.filter((name) => server.has(name)),
    [],
  )
  const cli = await packagesLoadedBy(fromPackageRoot('dist', 'cli', 'registry.js'))
  assert.ok(cli.has('clipanion'), [...cli].join(', '))
  assert.deepEqual(
    lazy.cli.filter((name) => cli.has(name)),
    [],
  )
})

test('a lazy package loads on its first call, once', () => {
  const jsdiff = lazyPackage<typeof import('diff')>('diff')
  assert.equal(jsdiff(), jsdiff())
  assert.equal(typeof jsdiff().structuredPatch, 'function')
  assert.throws(() => lazyPackage('no-such-package-here')(), /Cannot find module/)
})
