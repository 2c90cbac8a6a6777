/**
 * How much `npm run test:reliability` does: `DOCS_RELIABILITY=short` (the default, what CI runs: a few
 * minutes on two cores) or `long` (by hand: the figures quoted in the README).
 */
export type ReliabilitySetting = 'short' | 'long'

export function readSetting(value = process.env.DOCS_RELIABILITY): ReliabilitySetting {
  if (value === undefined || value === '' || value === 'short') return 'short'
  if (value === 'long') return 'long'
  throw new Error(`DOCS_RELIABILITY must be "short" or "long", not "${value}"`)
}

/** The number of each kind of case a setting runs. */
export interface CaseCounts {
  /** SIGKILLs of a server during a push. */
  crashes: number
  /** Generated inputs per compiler property. */
  propertyRuns: number
  /** Mutated corpus pages, each built as a one-page site. */
  corpusMutations: number
}

export const caseCounts: Record<ReliabilitySetting, CaseCounts> = {
  short: { crashes: 6, propertyRuns: 400, corpusMutations: 200 },
  long: { crashes: 24, propertyRuns: 10_000, corpusMutations: 10_000 },
}
