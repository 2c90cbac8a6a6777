/** V8's interrupt budget is raised before any thread starts, in every entry point that builds. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { INTERRUPT_BUDGET_FLAG } from '../../lib/jit-budget.js'

test('the flag is 16 times the default of the V8 this Node.js runs, and V8 takes it', () => {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' })
  const fallback = /default: --interrupt-budget=(\d+)/.exec(options)?.[1]
  assert.ok(fallback, 'node --v8-options lists --interrupt-budget')
  assert.equal(INTERRUPT_BUDGET_FLAG, `--interrupt-budget=${Number(fallback) * 16}`)
  assert.equal(
    execFileSync(process.execPath, [INTERRUPT_BUDGET_FLAG, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    }),
    'ok',
  )
})

for (const [entry, position] of [
  ['cli/main.js', 0],
  ['server/main.js', 1],
  ['bench/build.js', 0],
] as const) {
  test(`${entry} imports it before anything that could start a thread`, async () => {
    const source = await readFile(new URL(`../../${entry}`, import.meta.url), 'utf8')
    const imports = [...source.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map(
      (match) => match[1],
    )
    assert.match(imports[position] ?? '', /\/lib\/jit-budget\.js$/)
  })
}
