/**
 * Raises V8's interrupt budget (how much a function must run before the optimizing compiler takes
 * it) 16× for this process and every worker thread it starts. Imported first by docsctl, docs-server
 * and `npm run bench:build`, before any thread exists.
 *
 * Why: a build runs a large body of code (the Markdown parser and its extensions, shiki's tokenizer,
 * the hast utilities, the components) in every render thread, and each thread compiled about 1,300
 * functions with TurboFan, on the same cores that render: `perf` put 32% of a cold pipecat build's
 * CPU in the optimizing compiler. With 16× the budget only the functions that stay hot are compiled:
 * pipecat cold 10.4–11.9 s → 8.1–8.2 s (20–22 s of CPU → 15 s), 1,000 pages 5.5 → 3.9 s, 10,000 pages
 * 27.7 → 26.3 s. A server's request path, run thousands of times a second, is still compiled within
 * its first second of load (`npm run bench:serve` is unchanged).
 */
import { setFlagsFromString } from 'node:v8'

/** 16 × V8's default of 67,584. */
export const INTERRUPT_BUDGET_FLAG = '--interrupt-budget=1081344'

setFlagsFromString(INTERRUPT_BUDGET_FLAG)
