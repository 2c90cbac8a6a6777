/**
 * The two test tiers. `npm test` runs everything; `npm run test:unit` (DOCS_TEST_TIER=unit) runs
 * without PostgreSQL, Redis, Chromium or spawned `docsctl`/`docs-server` processes. test/run.js leaves out
 * test/e2e/, files named `*browser*.test.ts` and the real-world corpus files (`corpus*.test.ts`, minutes
 * of rendering); other tests that need one of these say so with
 * `{ skip: needs(…) }`, and the helpers that reach them refuse in the unit tier, so a test that
 * forgets fails there instead of slowing it down.
 */
import { fromPackageRoot } from '../compiler/assets.js'

export const unitTier = process.env.DOCS_TEST_TIER === 'unit'

export type Resource = 'PostgreSQL' | 'Redis' | 'Chromium' | 'a built binary'

/** A test option: skipped in the unit tier, saying what it needs. */
export const needs = (resource: Resource): string | false =>
  unitTier ? `needs ${resource}; npm test runs it` : false

/** Fails in the unit tier with the fix, for helpers that reach a resource the tier leaves out. */
export function assertTierAllows(resource: Resource): void {
  if (unitTier) {
    throw new Error(
      `This test needs ${resource}, which test:unit leaves out: add { skip: needs('${resource}') }`,
    )
  }
}

/** The built binary's path, for tests that spawn it as a user would. */
export function builtBinary(name: 'docsctl' | 'docs-server'): string {
  assertTierAllows('a built binary')
  // As the package's bins run them: bundled (scripts/bundle.ts).
  return fromPackageRoot('dist', 'bundle', name === 'docsctl' ? 'cli' : 'server', 'main.js')
}
