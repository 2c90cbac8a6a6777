/**
 * A CommonJS package loaded by its first use instead of by the import of the module that uses it: for
 * packages most processes never call (PostgreSQL's client in an embedded server, the diff of a change
 * report, the render pool before the first build). Each one kept out of the import graph is start-up
 * time saved by every `docs-server` and `docsctl` start and every test file (`npm run bench:start`).
 * Node caches the module, so later calls cost a map lookup.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** `() => require(name)`, typed by the caller: `lazyPackage<typeof import('diff')>('diff')`. */
export const lazyPackage =
  <T>(name: string): (() => T) =>
  () =>
    require(name) as T
