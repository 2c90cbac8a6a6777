/**
 * `npm run test:reliability`: runs every reliability suite in turn against the built binaries and prints
 * one table (suite, cases, failures, time, figures), then each failure. Exit code 1 when any case failed.
 * `DOCS_RELIABILITY=short` (the default, CI) or `long` (by hand, the README's figures); `node
 * dist/test/reliability/run.js <substring>` runs only the suites whose name contains it (the secrets
 * scan always runs last, over what the others produced).
 */
import { crashDuringPush } from './crash-during-push.js'
import { diskFull } from './disk-full.js'
import { hostileInput } from './hostile-input.js'
import { hostilePages } from './hostile-pages.js'
import { hostileRequests } from './hostile-requests.js'
import { load } from './load.js'
import { outages } from './outages.js'
import { pathCorpus } from './path-corpus.js'
import { responseHeaders } from './response-headers.js'
import { secretsScan } from './secrets-scan.js'
import { caseCounts, readSetting } from './setting.js'
import type { Suite, SuiteReport } from './suite.js'

const suites: readonly Suite[] = [
  crashDuringPush,
  diskFull,
  hostileInput,
  pathCorpus,
  hostileRequests,
  hostilePages,
  responseHeaders,
  load,
  outages,
]

interface Row extends SuiteReport {
  name: string
  seconds: number
}

async function runSuite(suite: Suite, context: Parameters<Suite['run']>[0]): Promise<Row> {
  const started = performance.now()
  context.say(`${suite.name}: started`)
  let report: SuiteReport
  try {
    report = await suite.run(context)
  } catch (error) {
    report = {
      cases: 0,
      failures: [`the suite crashed: ${(error as Error).stack ?? String(error)}`],
      figures: {},
    }
  }
  const seconds = (performance.now() - started) / 1000
  context.say(
    `${suite.name}: ${report.cases} cases, ${report.failures.length} failures, ${seconds.toFixed(0)} s`,
  )
  return { name: suite.name, seconds, ...report }
}

/** A plain-text table: one row per suite, figures wrapped onto continuation lines. */
export function formatTable(rows: readonly Row[], setting: string): string {
  const header = ['suite', 'cases', 'failures', 'time', 'figures']
  const figureWidth = 70
  const lines: string[][] = []
  for (const row of rows) {
    const figures = Object.entries(row.figures).map(([name, value]) => `${name}: ${value}`)
    const wrapped: string[] = []
    for (const figure of figures) {
      const last = wrapped.at(-1)
      if (last !== undefined && last.length + figure.length + 2 <= figureWidth)
        wrapped[wrapped.length - 1] = `${last}; ${figure}`
      else wrapped.push(figure)
    }
    lines.push([
      row.name,
      String(row.cases),
      String(row.failures.length),
      `${row.seconds.toFixed(0)} s`,
      wrapped[0] ?? '',
    ])
    for (const more of wrapped.slice(1)) lines.push(['', '', '', '', more])
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  )
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 1 || column === 2 || column === 3
          ? cell.padStart(widths[column]!)
          : cell.padEnd(widths[column]!),
      )
      .join(' │ ')
      .trimEnd()
  const rule = widths.map((width) => '─'.repeat(width)).join('─┼─')
  const total = rows.reduce((sum, row) => sum + row.cases, 0)
  const failed = rows.reduce((sum, row) => sum + row.failures.length, 0)
  const seconds = rows.reduce((sum, row) => sum + row.seconds, 0)
  return [
    `Reliability (${setting}): ${total} cases, ${failed} failures, ${(seconds / 60).toFixed(1)} min`,
    format(header),
    rule,
    ...lines.map(format),
  ].join('\n')
}

async function main(): Promise<number> {
  const setting = readSetting()
  const only = process.argv.slice(2)
  const context = {
    setting,
    counts: caseCounts[setting],
    say: (line: string) => process.stderr.write(`# ${line}\n`),
  }
  const chosen = suites.filter((suite) => only.length === 0 || only.some((part) => suite.name.includes(part)))
  const rows: Row[] = []
  for (const suite of [...chosen, secretsScan]) rows.push(await runSuite(suite, context))
  process.stdout.write(`\n${formatTable(rows, setting)}\n`)
  const failures = rows.flatMap((row) => row.failures.map((failure) => `${row.name}: ${failure}`))
  if (failures.length)
    process.stdout.write(`\nFailures:\n${failures.map((line) => `- ${line}`).join('\n')}\n`)
  return failures.length ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`test:reliability: ${(error as Error).stack ?? String(error)}\n`)
    process.exit(1)
  },
)
