/**
 * Checks custom domains in DNS: now, for `POST …/verify`, and in the background for every claim whose
 * last check is older than the re-check interval. The first claim of a (hostname, prefix) whose records
 * check out takes the name from the other, unverified claims. Whenever a domain starts or stops serving,
 * the site router forgets what it cached for the host, so the change holds from the next request.
 */
import type { ServerConfig } from '../config.js'
import type { DomainRow } from '../db/repositories/domains.js'
import type { Repositories } from '../db/repositories/index.js'
import { checkDomainDns } from './dns-check.js'
import { applyCheck, claimedElsewhere, describeFailure, expiryOf, takenOver } from './state.js'

/** Domains checked at once in a background round; each check is bounded by the DNS timeout. */
const concurrency = 4
const batchSize = 200

export class DomainVerifier {
  /** Called with a host name whose serving state changed; app.ts points it at the site router. */
  onServingChange: (hostname: string, projectId: string) => void = () => {}
  /** Where background failures go; app.ts points it at the server's logger. */
  onError: (error: unknown) => void = () => {}
  #timer: NodeJS.Timeout | undefined
  #round: Promise<unknown> | undefined

  constructor(
    private readonly config: ServerConfig,
    private readonly repos: Repositories,
  ) {}

  get graceMs(): number {
    return this.config.domains.graceSeconds * 1000
  }

  /** Check one domain's records now and store the outcome. */
  async verify(row: DomainRow, now = new Date()): Promise<DomainRow> {
    const expired = expiryOf(row, now, this.config.domains.pendingDays)
    if (expired) return this.#store(row, (await this.repos.domains.recordCheck(row.id, expired)) ?? row)
    const project = await this.repos.projects.findById(row.project_id)
    const slug = project?.slug ?? ''
    const result = await checkDomainDns(row, this.config)
    const failure = describeFailure(row, slug, this.config.baseDomain, result)
    const update = applyCheck(row, result, failure, now, this.graceMs)
    if (update.status === 'verified' && row.status !== 'verified') {
      const taken = await this.repos.domains.takeVerified(row, update, (other) => takenOver(other, now))
      if (taken !== 'claimed_elsewhere') return this.#store(row, taken)
      const refused = claimedElsewhere(row, update)
      return this.#store(row, (await this.repos.domains.recordCheck(row.id, refused)) ?? row)
    }
    return this.#store(row, (await this.repos.domains.recordCheck(row.id, update)) ?? row)
  }

  /** One background round: every claim due for a check, a few at a time. Answers how many were checked. */
  async recheckDue(now = new Date()): Promise<number> {
    const interval = Math.max(this.config.domains.recheckSeconds, 1) * 1000
    const due = await this.repos.domains.dueForCheck(
      new Date(now.getTime() - interval).toISOString(),
      batchSize,
    )
    let checked = 0
    const work = [...due]
    const worker = async () => {
      for (let row = work.shift(); row; row = work.shift()) {
        if (!(await this.repos.domains.claimCheck(row, now.toISOString()))) continue
        await this.verify(row, now)
        checked += 1
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    return checked
  }

  /** Background rounds every re-check interval (at most a minute apart), unless turned off. */
  start(): void {
    const seconds = this.config.domains.recheckSeconds
    if (seconds === 0 || this.#timer) return
    this.#timer = setInterval(() => {
      if (this.#round) return
      this.#round = this.recheckDue()
        .catch((error: unknown) => this.onError(error))
        .finally(() => {
          this.#round = undefined
        })
    }, Math.min(seconds, 60) * 1000)
    this.#timer.unref()
  }

  /** Stop the rounds and wait for one in flight (it writes to the database). */
  async close(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#round
  }

  #store(before: DomainRow, after: DomainRow): DomainRow {
    if ((before.status === 'verified') !== (after.status === 'verified'))
      this.onServingChange(after.hostname, after.project_id)
    return after
  }
}
