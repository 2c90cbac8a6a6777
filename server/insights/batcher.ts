/**
 * Accepted reader events wait in memory, as JSON bytes outside the JavaScript heap (`WaitingEvents`),
 * and are written together: every `flushMs`, or at once when `maxBatch` are waiting. One flush is one
 * transaction (raw rows, the daily counts summed over the batch, comments, visitor hashes), so 1,000
 * events a second cost the database a few statements a second: a flush a second of up to 1,000 events
 * (on SQLite a thread of its own writes it, sqlite-writer.ts); after a stall it is everything that
 * waited. Flushes of 1,000 take 35 µs of CPU an event off the serving thread where flushes of 100
 * took 56 (bench:insights, `events alone`): the statements' building and the daily keys' summing are
 * paid once a flush, not ten times, and on a one-core replica that CPU is the readers'. A flush the database refuses is
 * kept and tried again with the next one; past `maxWaiting` events new ones are dropped and counted, so
 * an outage cannot take the server's memory.
 */

import type { InsightBatch } from '../db/repositories/insights.js'
import type { ReaderEvent } from './event.js'

export interface AcceptedEvent {
  projectId: string
  day: string
  event: ReaderEvent
  /** The day's salted hash of the reader (page views only). */
  visitor?: string
}

/** The form a search query is counted under: trimmed, lowercased, inner spaces collapsed. */
export const normaliseQuery = (query: string): string => query.trim().toLowerCase().replace(/\s+/g, ' ')

/** The batch one flush writes for `events`: the daily counts are summed here, once per key. */
export function batchOf(events: readonly AcceptedEvent[]): InsightBatch {
  const counts = new Map<string, InsightBatch['counts'][number]>()
  const count = (accepted: AcceptedEvent, metric: string, key: string) => {
    const id = `${accepted.projectId}\n${accepted.day}\n${metric}\n${key}`
    const existing = counts.get(id)
    if (existing) existing.total += 1
    else counts.set(id, { projectId: accepted.projectId, day: accepted.day, metric, key, total: 1 })
  }
  const batch: InsightBatch = { events: [], counts: [], comments: [], visitors: [] }
  for (const accepted of events) {
    const { event, projectId, day } = accepted
    const row = { projectId, day }
    switch (event.type) {
      case 'view':
        count(accepted, 'view', event.path)
        count(accepted, 'screen', event.screen)
        if (event.referrer) count(accepted, 'referrer', event.referrer)
        if (accepted.visitor) batch.visitors.push({ ...row, visitor: accepted.visitor })
        batch.events.push({
          ...row,
          kind: 'view',
          path: event.path,
          detail: { referrer: event.referrer ?? null, screen: event.screen },
        })
        break
      case 'search': {
        const query = normaliseQuery(event.query)
        count(accepted, 'search', query)
        if (event.results === 0) count(accepted, 'search-none', query)
        if (event.opened) count(accepted, 'search-open', event.opened)
        batch.events.push({
          ...row,
          kind: 'search',
          path: event.opened ?? '',
          detail: { query, results: event.results, opened: event.opened ?? null },
        })
        break
      }
      case 'feedback': {
        count(accepted, event.helpful ? 'helpful' : 'not-helpful', event.path)
        const comment = event.comment?.trim()
        if (comment) batch.comments.push({ ...row, path: event.path, helpful: event.helpful, comment })
        batch.events.push({
          ...row,
          kind: 'feedback',
          path: event.path,
          detail: { helpful: event.helpful, comment: comment ?? null },
        })
        break
      }
      case 'copy':
      case 'not-found':
        count(accepted, event.type, event.path)
        batch.events.push({ ...row, kind: event.type, path: event.path, detail: {} })
        break
    }
  }
  // In one order on every replica, so two transactions adding to the same rows never deadlock.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  batch.counts = [...counts.entries()].sort(([a], [b]) => order(a, b)).map(([, count]) => count)
  batch.visitors.sort((a, b) =>
    order(`${a.projectId}\n${a.day}\n${a.visitor}`, `${b.projectId}\n${b.day}\n${b.visitor}`),
  )
  return batch
}

/**
 * What writes a flush's events as one batch (`batchOf`): the repository on the serving thread, or on
 * SQLite a thread of its own (sqlite-writer.ts), which then also sums the batch. `events` is the JSON
 * text of an `AcceptedEvent[]`, as the batcher holds them.
 */
export interface InsightWriter {
  write(events: string): Promise<void>
}

/** The events of a JSON text the batcher wrote (`WaitingEvents.take`). */
export const parseEvents = (events: string): AcceptedEvent[] => JSON.parse(events) as AcceptedEvent[]

/** Writes on the calling thread, through the repository (PostgreSQL, whose client is asynchronous). */
export const repositoryWriter = (insights: {
  record(batch: InsightBatch): Promise<void>
}): InsightWriter => ({ write: (events) => insights.record(batchOf(parseEvents(events))) })

export interface BatcherOptions {
  flushMs: number
  maxBatch: number
  maxWaiting: number
}

/**
 * A waiting buffer's first size, and the size past which a flush hands it over for a new one: a
 * second's 1,000 events (about 120 KB) keep theirs.
 */
const firstBytes = 16 * 1024
const keptBytes = 256 * 1024

/**
 * Events waiting for a flush, as the JSON text of an `AcceptedEvent[]` in a buffer outside the
 * JavaScript heap. Held as objects, the events that waited through the serving thread's scavenges were
 * copied by each and then promoted: ~125 KB a scavenge at 1,000 events a second, which took its pause
 * from 0.8 to 1.9 ms (bench:insights with `--trace-gc-nvp`). As bytes, an event leaves nothing on the
 * heap once it is added.
 */
class WaitingEvents {
  #bytes = Buffer.allocUnsafeSlow(firstBytes)
  /** Bytes of `#bytes` in use: `[` and the events, comma-separated. */
  #used = 0
  count = 0

  add(json: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8; one more for the comma.
    const room = json.length * 3 + 2
    if (this.#used + room > this.#bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.#bytes.length * 2, this.#used + room))
      this.#bytes.copy(grown, 0, 0, this.#used)
      this.#bytes = grown
    }
    this.#bytes[this.#used++] = this.count === 0 ? 0x5b /* [ */ : 0x2c /* , */
    this.#used += this.#bytes.write(json, this.#used)
    this.count += 1
  }

  /** Everything waiting, as JSON text (`[]` when nothing is), and empties the buffer. */
  take(): string {
    const events = this.count === 0 ? '[]' : `${this.#bytes.toString('utf8', 0, this.#used)}]`
    this.#used = 0
    this.count = 0
    // A buffer an outage grew is not kept once it has been emptied.
    if (this.#bytes.length > keptBytes) this.#bytes = Buffer.allocUnsafeSlow(firstBytes)
    return events
  }
}

export class InsightBatcher {
  readonly #waiting = new WaitingEvents()
  #flushing: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  /** Events dropped because too many were waiting (the database was away). */
  dropped = 0
  onError: (error: unknown) => void = () => {}

  constructor(
    private readonly writer: InsightWriter,
    private readonly options: BatcherOptions = { flushMs: 1000, maxBatch: 1000, maxWaiting: 100_000 },
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.options.flushMs)
    this.#timer.unref()
  }

  /** Events waiting to be written. */
  get waiting(): number {
    return this.#waiting.count
  }

  add(event: AcceptedEvent): void {
    if (this.#waiting.count >= this.options.maxWaiting) {
      this.dropped += 1
      return
    }
    this.#waiting.add(JSON.stringify(event))
    // One flush at a time: while one is being written, the events past a batch wait for its end
    // (below) rather than each starting a flush that waits in line.
    if (this.#waiting.count >= this.options.maxBatch && !this.#flushing) void this.flush()
  }

  /** Writes what is waiting; resolves once it is written (or kept for the next try). One flush at a time. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing
    if (this.#waiting.count === 0) return
    const events = this.#waiting.take()
    let written = true
    this.#flushing = this.writer
      .write(events)
      .catch((error: unknown) => {
        written = false
        this.onError(error)
        this.#putBack(events)
      })
      .finally(() => {
        this.#flushing = undefined
        // A full batch waited for this one; after a failure, the next event or the timer tries again.
        if (written && this.#waiting.count >= this.options.maxBatch) void this.flush()
      })
    await this.#flushing
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    await this.flush()
  }

  /**
   * Puts a batch the database refused back before the events that came since, so the next flush writes
   * them in order; past `maxWaiting`, the newest are dropped and counted.
   */
  #putBack(events: string): void {
    let all = [...parseEvents(events), ...parseEvents(this.#waiting.take())]
    if (all.length > this.options.maxWaiting) {
      this.dropped += all.length - this.options.maxWaiting
      all = all.slice(0, this.options.maxWaiting)
    }
    for (const event of all) this.#waiting.add(JSON.stringify(event))
  }
}
