/**
 * What every reliability suite hands the runner: the cases it ran, the failures (each one line saying
 * what broke and where), and its figures (what it measured, for the table). Suites never fail on time:
 * durations are figures only.
 */
import type { CaseCounts, ReliabilitySetting } from './setting.js'

export interface SuiteReport {
  cases: number
  failures: string[]
  /** `name: value` figures, printed in the table's last column. */
  figures: Record<string, string | number>
}

export interface Suite {
  name: string
  run(context: SuiteContext): Promise<SuiteReport>
}

export interface SuiteContext {
  setting: ReliabilitySetting
  counts: CaseCounts
  /** A progress line on stderr, so a long run shows it is alive without mixing into the table. */
  say(line: string): void
}

/** Counts cases and collects failures: `check` is one case. */
export class Cases {
  count = 0
  readonly failures: string[] = []

  /** One case: passes when `ok`, else records `failure` (made only then). */
  check(ok: boolean, failure: () => string): boolean {
    this.count++
    if (!ok) this.failures.push(failure())
    return ok
  }

  /** A failure outside a counted case (set-up that broke). */
  fail(failure: string): void {
    this.failures.push(failure)
  }

  report(figures: SuiteReport['figures']): SuiteReport {
    return { cases: this.count, failures: this.failures, figures }
  }
}
