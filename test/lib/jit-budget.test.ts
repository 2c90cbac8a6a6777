/** V8's interrupt budget: raised before any thread starts, 16× by docsctl and 4× by docs-server. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { DEFAULT_INTERRUPT_BUDGET, interruptBudgetFlag } from '../../lib/jit-budget.js'

test('the flag is a multiple of the default budget, and the V8 this Node.js runs takes it', () => {
  assert.equal(interruptBudgetFlag(16), `--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET * 16}`)
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' })
  const fallback = Number(/default: --interrupt-budget=(\d+)/.exec(options)?.[1])
  assert.ok(fallback > 0, 'node --v8-options lists --interrupt-budget')
  assert.ok(DEFAULT_INTERRUPT_BUDGET * 4 > fallback, 'even 4× is above what this V8 does by default')
  const run = execFileSync(process.execPath, [interruptBudgetFlag(16), '-e', 'process.stdout.write("ok")'], {
    encoding: 'utf8',
  })
  assert.equal(run, 'ok')
})

for (const [entry, factor, work] of [
  ['cli/main.js', 16, 'await cli.run('],
  ['bench/build.js', 16, 'await run('],
  ['server/main.js', 4, 'main(process.argv'],
] as const) {
  test(`${entry} raises it ${factor}× before it starts any work`, async () => {
    const source = await readFile(new URL(`../../${entry}`, import.meta.url), 'utf8')
    const raised = source.indexOf(`raiseInterruptBudget(${factor});`)
    assert.ok(raised > 0, 'raised')
    assert.ok(raised < source.indexOf(work), `before ${work}`)
  })
}
