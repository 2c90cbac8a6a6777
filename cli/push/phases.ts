/**
 * The phases of a push and how long each took: read (the files, hashed), validate (the local check),
 * upload (the deployment created and the missing files sent), build (the server's build, until the
 * deployment is ready) and live (from the start of the push to the site being live, or the preview
 * ready). Printed one line each in CI logs and given whole by `--json`.
 */
import { performance } from 'node:perf_hooks'

export type PhaseName = 'read' | 'validate' | 'upload' | 'build' | 'live'

export interface PhaseTiming {
  phase: PhaseName
  ms: number
  detail?: string
}

export class PushPhases {
  readonly timings: PhaseTiming[] = []
  readonly #now: () => number
  readonly #started: number
  #last: number

  constructor(now: () => number = () => performance.now()) {
    this.#now = now
    this.#started = now()
    this.#last = this.#started
  }

  /** Start timing the next phase here (time spent on checks and prompts before it is not counted). */
  restart(): void {
    this.#last = this.#now()
  }

  /** End `phase` now: its time since the previous phase ended (or `live`: since the push began). */
  end(phase: PhaseName, detail?: string): PhaseTiming {
    const now = this.#now()
    const timing: PhaseTiming = {
      phase,
      ms: Math.round(phase === 'live' ? now - this.#started : now - this.#last),
      ...(detail === undefined ? {} : { detail }),
    }
    this.#last = now
    this.timings.push(timing)
    return timing
  }

  /** `{read: 120, validate: 900, …}` in milliseconds, for `--json`. */
  toJSON(): Partial<Record<PhaseName, number>> {
    return Object.fromEntries(this.timings.map((timing) => [timing.phase, timing.ms]))
  }
}

/** `validate  0.92 s  470 pages, 469 unchanged` */
export const formatPhase = (timing: PhaseTiming): string =>
  `${timing.phase.padEnd(8)} ${(timing.ms / 1000).toFixed(2).padStart(6)} s${timing.detail ? `  ${timing.detail}` : ''}`
