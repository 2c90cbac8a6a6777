// A node:test reporter that adds up, per test file, the time of its top-level tests (a `before` hook
// counts in the first test) and writes one JSON object { file: ms } at the end: test/run.js prints the
// slowest files from it, so a suite that grows slow shows where.
/** @param {AsyncIterable<{ type: string, data: { nesting: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* timing(source) {
  /** @type {Record<string, number>} */
  const perFile = {}
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { nesting, file, details } = event.data
    if (nesting !== 0 || !file) continue
    perFile[file] = (perFile[file] ?? 0) + (details?.duration_ms ?? 0)
  }
  yield `${JSON.stringify(perFile)}\n`
}
