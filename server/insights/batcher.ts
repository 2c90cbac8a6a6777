/**
 * Accepted reader events wait in memory, as JSON bytes outside the JavaScript heap (`WaitingEvents`),
 * and are written together: every `flushMs`, or at once when `maxBatch` are waiting. One write is one
 * transaction of at most `maxBatch` events (raw rows, the daily counts summed over the batch, comments,
 * visitor hashes), so 1,000 events a second cost the database a few statements a second (on SQLite a
 * thread of its own writes them, sqlite-writer.ts). Batches of 1,000 take 35 µs of CPU an event off the
 * serving thread where batches of 100 took 56 (bench:insights, `events alone`): the statements' building
 * and the daily keys' summing are paid once a batch, not ten times, and on a one-core replica that CPU
 * is the readers'. A batch the database refuses stays first and is tried again by the next flush (one
 * whose data it refuses is written apart instead, and the events it cannot store dropped); past
 * `maxWaiting` events new ones are dropped and counted, so an outage cannot take the server's memory.
 * After one, what waited is written a batch at a time: on PostgreSQL the serving thread builds each
 * batch's statements, and one of 100,000 events would hold it for as long as that takes.
 */

import type { InsightBatch } from '../db/repositories/insights.js'
import { isRefusedData } from '../db/retry.js'
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
 * A waiting buffer's first size, and the size past which an emptied buffer is given up for a new one: a
 * second's 1,000 events (about 120 KB) keep theirs.
 */
const firstBytes = 16 * 1024
const keptBytes = 256 * 1024

/** Where a batch of the waiting events ends in their buffer, and how many events it holds. */
interface Cut {
  end: number
  events: number
}

/**
 * Events waiting to be written, as JSON text in a buffer outside the JavaScript heap, each event after a
 * comma, cut into batches of at most `batchSize`. Held as objects, the events that waited through the
 * serving thread's scavenges were copied by each and then promoted: ~125 KB a scavenge at 1,000 events a
 * second, which took its pause from 0.8 to 1.9 ms (bench:insights with `--trace-gc-nvp`). As bytes, an
 * event leaves nothing on the heap once it is added.
 *
 * The first batch stays in the buffer while it is written (`first`) and leaves it once the database has
 * it (`shift`): a batch the database refuses is simply still first, so an outage costs a failed flush
 * one batch's text, not a parse and a copy of everything that waits, and after it the events that
 * waited are written a batch at a time, as they came.
 */
class WaitingEvents {
  #bytes: Buffer = Buffer.allocUnsafeSlow(firstBytes)
  /** The first waiting byte, and the end of the last: `#bytes[#start..#used)`. */
  #start = 0
  #used = 0
  /** The batches closed so far, in order; the events after the last cut are the open batch. */
  readonly #cuts: Cut[] = []
  #open = 0
  /** Events added, and events written, so far: a flush writes until `written` reaches `added` as it found it. */
  added = 0
  written = 0

  constructor(private readonly batchSize: number) {}

  /** Events waiting, those being written included. */
  get count(): number {
    return this.added - this.written
  }

  /**
   * Whether a batch of `batchSize` events waits to be written. The first batch may be one being written,
   * or a shorter one the database refused: a second batch is full whatever its size (only the open
   * batch is short).
   */
  get full(): boolean {
    return this.#cuts.length > 1 || this.#cuts[0]?.events === this.batchSize
  }

  add(json: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8; one more for the comma.
    const room = json.length * 3 + 1
    if (this.#used + room > this.#bytes.length) this.#makeRoom(room)
    this.#bytes[this.#used++] = 0x2c /* , */
    this.#used += this.#bytes.write(json, this.#used)
    this.added += 1
    this.#open += 1
    if (this.#open === this.batchSize) this.#close()
  }

  /** The first batch as the JSON text of an `AcceptedEvent[]` (closing the open one if it is all there is). */
  first(): string | undefined {
    if (this.count === 0) return undefined
    if (this.#cuts.length === 0) this.#close()
    const cut = this.#cuts[0] as Cut
    // Skip the first event's comma.
    return `[${this.#bytes.toString('utf8', this.#start + 1, cut.end)}]`
  }

  /** Forgets the first batch: it is written. */
  shift(): void {
    const cut = this.#cuts.shift()
    if (!cut) return
    this.#start = cut.end
    this.written += cut.events
    if (this.count === 0) {
      this.#start = 0
      this.#used = 0
      // A buffer an outage grew is not kept once it has been emptied.
      if (this.#bytes.length > keptBytes) this.#bytes = Buffer.allocUnsafeSlow(firstBytes)
    } else if (this.#bytes.length > keptBytes && this.#used - this.#start <= keptBytes / 2) {
      // Nor once what waits would fit a kept one: events keep coming, so it may never be empty.
      this.#moveTo(Buffer.allocUnsafeSlow(keptBytes))
    }
  }

  #close(): void {
    this.#cuts.push({ end: this.#used, events: this.#open })
    this.#open = 0
  }

  /** Moves the waiting bytes to the front, into a larger buffer when they and `room` would not fit. */
  #makeRoom(room: number): void {
    const waiting = this.#used - this.#start
    this.#moveTo(
      waiting + room <= this.#bytes.length
        ? this.#bytes
        : Buffer.allocUnsafeSlow(Math.max(this.#bytes.length * 2, waiting + room)),
    )
  }

  /** Moves the waiting bytes to the front of `bytes` (this buffer or another). */
  #moveTo(bytes: Buffer): void {
    this.#bytes.copy(bytes, 0, this.#start, this.#used)
    this.#bytes = bytes
    for (const cut of this.#cuts) cut.end -= this.#start
    this.#used -= this.#start
    this.#start = 0
  }
}

export class InsightBatcher {
  readonly #waiting: WaitingEvents
  /** The batch being written, if one is. */
  #writing: Promise<boolean> | undefined
  /** Whether the last write failed: then only the timer (or a flush asked for) tries again. */
  #failing = false
  #timer: NodeJS.Timeout | undefined
  /**
   * Events dropped: because too many were waiting (the database was away), or because the database
   * refused what they hold (`#writeApart`).
   */
  dropped = 0
  onError: (error: unknown) => void = () => {}

  constructor(
    private readonly writer: InsightWriter,
    private readonly options: BatcherOptions = { flushMs: 1000, maxBatch: 1000, maxWaiting: 100_000 },
  ) {
    this.#waiting = new WaitingEvents(options.maxBatch)
  }

  start(): void {
    // A write still under way (a database slow to refuse) is not joined by another flush each tick.
    this.#timer ??= setInterval(() => {
      if (!this.#writing) void this.flush()
    }, this.options.flushMs)
    this.#timer.unref()
  }

  /** Events not yet written, a batch being written included. */
  get waiting(): number {
    return this.#waiting.count
  }

  add(event: AcceptedEvent): void {
    if (this.#waiting.count >= this.options.maxWaiting) {
      this.dropped += 1
      return
    }
    this.#waiting.add(JSON.stringify(event))
    // One write at a time: while one is being written, the batches past it wait for its end (below)
    // rather than each starting a write that waits in line.
    if (this.#waiting.full && !this.#writing && !this.#failing) void this.#writeFirst()
  }

  /**
   * Writes what is waiting, a batch at a time, and resolves once it is written or a batch is refused
   * (kept for the next try). What other writes took meanwhile counts: a flush that waited behind them
   * writes only what they left of its events, so flushes that piled up during an outage do not each
   * cut a short batch once it ends.
   */
  async flush(): Promise<void> {
    const upTo = this.#waiting.added
    while (this.#waiting.written < upTo) if (!(await this.#writeFirst(upTo))) return
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    await this.flush()
  }

  /**
   * Writes the first batch once no other is being written, unless those written meanwhile took every
   * event up to `upTo`; false when the database refused it.
   */
  async #writeFirst(upTo = Number.POSITIVE_INFINITY): Promise<boolean> {
    while (this.#writing) await this.#writing
    if (this.#waiting.written >= upTo) return true
    const events = this.#waiting.first()
    if (events === undefined) return true
    const stored = () => {
      this.#waiting.shift()
      this.#failing = false
      return true
    }
    const writing = this.#write(events).then(stored, async (error: unknown) => {
      this.onError(error)
      if (!isRefusedData(error)) {
        this.#failing = true
        return false
      }
      await this.#writeApart(parseEvents(events))
      return stored()
    })
    this.#writing = writing
    const written = await writing
    this.#writing = undefined
    // A full batch waited for this one; after a failure, the timer or a flush tries again.
    if (written && this.#waiting.full) void this.#writeFirst()
    return written
  }

  /**
   * A batch the database refused for what it holds, not because it is away (a value it cannot store,
   * a constraint): kept first, it would be refused at every try and every event after it would wait
   * until dropped. It is written in halves instead, down to single events: what the database takes is
   * kept, an event it refuses is dropped and counted. Should the database go away meanwhile, what is
   * left of the batch is dropped and counted too, rather than written twice once it is back.
   */
  async #writeApart(events: AcceptedEvent[]): Promise<void> {
    // A stack, the first half on top: the events are written in the order they came.
    const parts: AcceptedEvent[][] = []
    const refused = (part: AcceptedEvent[]) => {
      const half = Math.ceil(part.length / 2)
      if (part.length > 1) parts.push(part.slice(half), part.slice(0, half))
      else this.dropped += 1
    }
    refused(events)
    for (let part = parts.pop(); part; part = parts.pop()) {
      try {
        await this.#write(JSON.stringify(part))
      } catch (error) {
        const lasting = isRefusedData(error)
        if (!lasting || part.length === 1) this.onError(error)
        if (lasting) {
          refused(part)
          continue
        }
        this.dropped += parts.reduce((sum, left) => sum + left.length, part.length)
        return
      }
    }
  }

  /** The writer's promise, also when it throws before making one (a refusal like any other). */
  #write(events: string): Promise<void> {
    try {
      return this.writer.write(events)
    } catch (error) {
      return Promise.reject(error)
    }
  }
}
