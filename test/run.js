#!/usr/bin/env node
// `node test/run.js [substring…]` runs every compiled test file with node's test runner. Node 20 takes no globs, so list them here.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const root = 'dist/test'
const only = process.argv.slice(2)
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
  .sort()
if (files.length === 0) {
  console.error(`no test files under ${root}${only.length ? ` matching ${only.join(', ')}` : ''}`)
  process.exit(1)
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' })
process.exit(result.status ?? 1)
