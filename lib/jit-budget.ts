/**
 * Raising V8's interrupt budget: how much a function must run before the optimizing compiler takes
 * it. V8 flags hold for the whole process, every worker thread included; set it before any thread
 * starts.
 *
 * Why: a build runs a large body of code (the Markdown parser and its extensions, shiki's tokenizer,
 * the hast utilities, the components) in every render thread, and each thread compiled about 1,300
 * functions with TurboFan, on the same cores that render: `perf` put 32% of a cold pipecat build's
 * CPU in the optimizing compiler. With 16× the budget only the functions that stay hot are compiled:
 * pipecat cold 10.4–11.9 s → 8.1–8.2 s (20–22 s of CPU → 15 s), 1,000 pages 5.5 → 3.9 s, 10,000 pages
 * 27.7 → 26.3 s (4×: pipecat 8.8–9.1 s).
 *
 * The cost lands on a long-running process's request path: a raw `node:http` handler in a process
 * with the API loaded took 11.2–13.0 µs a request at the default budget, 12.0–12.4 µs at 4× and
 * 13.1–14.8 µs at 16×. So docsctl (and `npm run bench:build`, which measures what docsctl does) take
 * 16×, and docs-server, whose builds share the process with serving, 4×.
 */
import { setFlagsFromString } from 'node:v8'

/** V8's own default in the Node.js versions this package supports (20: 67,584). */
export const DEFAULT_INTERRUPT_BUDGET = 67_584

export const interruptBudgetFlag = (factor: number): string =>
  `--interrupt-budget=${Math.round(DEFAULT_INTERRUPT_BUDGET * factor)}`

/** Raise the budget `factor` times for this process and every thread it starts from now on. */
export function raiseInterruptBudget(factor: number): void {
  setFlagsFromString(interruptBudgetFlag(factor))
}
