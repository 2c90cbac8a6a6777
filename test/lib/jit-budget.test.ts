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

/**
 * Calls of one small function before TurboFan has compiled it, in a fresh process whose budget is raised
 * `factor` times the way docsctl and docs-server raise it (at run time, not on the command line).
 * Synchronous compilation makes the count exact; the status bit is V8's `kTurboFanned`.
 */
function callsBeforeTurbofan(factor: number): number {
  const module = new URL('../../lib/jit-budget.js', import.meta.url).href
  const script = `
    import { raiseInterruptBudget } from ${JSON.stringify(module)}
    if (${factor} > 1) raiseInterruptBudget(${factor})
    function work(n) {
      let a = 0, b = 1, c = 2, d = 3
      for (let k = 0; k < n; k++) { a = (a + k * 3) | 0; b = (b ^ a) | 0; c = (c + (b & 7)) | 0; d = (d * 5 + c) | 0 }
      return a + b + c + d
    }
    let calls = 0
    while ((%GetOptimizationStatus(work) & 64) === 0 && calls < 1e6) { work(10); calls++ }
    process.stdout.write(String(calls))`
  const flags = ['--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module']
  return Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }))
}

test('raised at run time, the budget is in effect: a function runs 4× and 16× as long before TurboFan takes it', () => {
  const atDefault = callsBeforeTurbofan(1)
  assert.ok(
    atDefault > 0 && atDefault < 1e6,
    `TurboFan compiles the function at the default budget (${atDefault} calls)`,
  )
  for (const factor of [4, 16]) {
    const raised = callsBeforeTurbofan(factor)
    assert.ok(
      raised >= (factor / 2) * atDefault,
      `${factor}×: ${raised} calls, against ${atDefault} at the default`,
    )
  }
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
