#!/usr/bin/env node
// `node test/run.js [--unit] [substring…]` runs every compiled test file with node's test runner. Node 20 takes no globs, so list them here.
// --unit is the fast tier (test/tier.ts): no test/e2e/, no files named `*browser*`, no `corpus*.test` files
// (minutes of real-world sites), and DOCS_TEST_TIER=unit so tests that need PostgreSQL, Chromium or a
// built binary skip themselves.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { basename, join, sep } from 'node:path'

const root = 'dist/test'
const args = process.argv.slice(2)
const unit = args.includes('--unit')
const only = args.filter((arg) => arg !== '--unit')
/** @param {string} file */
const inUnitTier = (file) =>
  !file.startsWith(join(root, 'e2e') + sep) &&
  !basename(file).includes('browser') &&
  !basename(file).startsWith('corpus')
/** @param {string} dir @returns {string[]} */
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(join(dir, entry.name))
      : entry.name.endsWith('.test.js')
        ? [join(dir, entry.name)]
        : [],
  )
const files = walk(root)
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .filter((file) => !unit || inUnitTier(file))
  .sort()
if (files.length === 0) {
  console.error(`no test files under ${root}${only.length ? ` matching ${only.join(', ')}` : ''}`)
  process.exit(1)
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: unit ? { ...process.env, DOCS_TEST_TIER: 'unit' } : process.env,
})
process.exit(result.status ?? 1)
