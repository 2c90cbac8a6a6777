/**
 * How every replica learns at once that a site changed (a deployment went live, a project was deleted,
 * a custom domain started or stopped serving) and that a build was queued. On PostgreSQL a change is
 * recorded in `site_changes` and announced with NOTIFY; each replica LISTENs on its own connection and
 * forgets what it cached. When that connection drops, the replica polls `site_changes` every `pollMs`
 * and reconnects with backoff, catching up on what it missed. On SQLite (one process) changes apply
 * locally only.
 */
import { type Kysely, sql } from 'kysely'
import type pg from 'pg'
import { lazyPackage } from '../../lib/lazy-package.js'
import type { DatabaseEngine } from '../db/index.js'
import type { Repositories } from '../db/repositories/index.js'
import type { SiteChange, SiteChangeRow } from '../db/repositories/site-changes.js'
import type { Database } from '../db/schema.js'

/** Loaded by a server on PostgreSQL only. */
const postgres = lazyPackage<typeof pg>('pg')

const siteChannel = 'docs_site_changes'
const buildChannel = 'docs_build_jobs'
/** Polls read this far back, so a replica whose clock is a little behind is not missed. */
const pollOverlapMs = 5000

export interface ChangeFeedOptions {
  engine: DatabaseEngine
  databaseUrl: string | undefined
  databaseSchema: string | undefined
  /** Poll interval while the listening connection is down. */
  pollMs: number
}

export class SiteChangeFeed {
  /** Applies a change to this replica's caches; app.ts points it at the site router. */
  onChange: (change: SiteChange) => void = () => {}
  /** Another replica queued a build. */
  onBuildQueued: () => void = () => {}
  onError: (error: unknown, message: string) => void = () => {}
  /** True while the listening connection is up (or on SQLite, where there is nothing to listen to). */
  listening: boolean
  #client: pg.Client | undefined
  #pollTimer: NodeJS.Timeout | undefined
  #reconnectTimer: NodeJS.Timeout | undefined
  #cleanupTimer: NodeJS.Timeout | undefined
  #reconnects = 0
  #closed = false
  /** Start of the window the next poll reads. */
  #since = new Date(Date.now() - pollOverlapMs).toISOString()
  /** Changes already applied, by id, with when they were recorded (pruned past the overlap). */
  readonly #seen = new Map<string, string>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly repos: Repositories,
    private readonly options: ChangeFeedOptions,
  ) {
    this.listening = options.engine === 'sqlite'
  }

  get postgres(): boolean {
    return this.options.engine === 'postgres'
  }

  /** Resolves once the first LISTEN is up (or failed, and polling took over). */
  async start(): Promise<void> {
    if (!this.postgres || this.#closed) return
    const connected = this.#connect()
    // Announcements are read within seconds; an hour of them is plenty for any catch-up.
    this.#cleanupTimer = setInterval(() => {
      this.repos.siteChanges
        .forgetBefore(new Date(Date.now() - 3600_000).toISOString())
        .catch((error: unknown) => this.onError(error, 'could not delete old site changes'))
    }, 600_000)
    this.#cleanupTimer.unref()
    await connected
  }

  /** Apply a change here at once and announce it to every other replica. Never throws. */
  async publish(change: SiteChange): Promise<void> {
    this.onChange(change)
    if (!this.postgres) return
    try {
      const row = await this.repos.siteChanges.record(change)
      this.#seen.set(row.id, row.created_at)
      await sql`select pg_notify(${siteChannel}, ${JSON.stringify(row)})`.execute(this.db)
    } catch (error) {
      this.onError(
        error,
        'could not announce a site change; other replicas see it within their cache lifetime',
      )
    }
  }

  /** Tell idle replicas a build is waiting. Never throws. */
  async announceBuild(): Promise<void> {
    if (!this.postgres) return
    try {
      await sql`select pg_notify(${buildChannel}, '')`.execute(this.db)
    } catch (error) {
      this.onError(error, 'could not announce a queued build; other replicas find it by polling')
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#pollTimer)
    clearTimeout(this.#reconnectTimer)
    clearInterval(this.#cleanupTimer)
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => {})
  }

  async #connect(): Promise<void> {
    const client = new (postgres().Client)({
      connectionString: this.options.databaseUrl,
      ...(this.options.databaseSchema ? { options: `-c search_path=${this.options.databaseSchema}` } : {}),
    })
    // Without a listener a dropped connection's 'error' would end the process.
    client.on('error', (error) => this.#dropped(client, error))
    client.on('end', () => this.#dropped(client, undefined))
    client.on('notification', (message) => {
      if (message.channel === buildChannel) this.onBuildQueued()
      else if (message.channel === siteChannel && message.payload) this.#receive(message.payload)
    })
    this.#client = client
    try {
      await client.connect()
      await client.query(`listen ${siteChannel}`)
      await client.query(`listen ${buildChannel}`)
    } catch (error) {
      this.#dropped(client, error)
      await client.end().catch(() => {})
      return
    }
    if (this.#client !== client) return
    this.listening = true
    this.#reconnects = 0
    clearTimeout(this.#pollTimer)
    this.#pollTimer = undefined
    // What changed while nobody listened (or before the first LISTEN) is in the table.
    await this.#poll()
  }

  #dropped(client: pg.Client, error: unknown): void {
    if (this.#client !== client || this.#closed) return
    this.#client = undefined
    this.listening = false
    if (error) this.onError(error, 'change notifications lost; polling until the connection is back')
    this.#schedulePoll()
    const wait = Math.min(10_000, 250 * 2 ** this.#reconnects++)
    this.#reconnectTimer = setTimeout(() => void this.#connect(), wait)
    this.#reconnectTimer.unref()
  }

  #schedulePoll(): void {
    if (this.#closed || this.listening || this.#pollTimer) return
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = undefined
      void this.#poll().finally(() => this.#schedulePoll())
    }, this.options.pollMs)
    this.#pollTimer.unref()
  }

  async #poll(): Promise<void> {
    const startedAt = Date.now()
    try {
      for (const row of await this.repos.siteChanges.since(this.#since)) this.#apply(row)
      // Another replica builds may have been queued meanwhile, too.
      this.onBuildQueued()
      this.#since = new Date(startedAt - pollOverlapMs).toISOString()
      for (const [id, createdAt] of this.#seen) if (createdAt < this.#since) this.#seen.delete(id)
    } catch (error) {
      this.onError(error, 'polling site changes failed; retrying')
    }
  }

  #receive(payload: string): void {
    try {
      this.#apply(JSON.parse(payload) as SiteChangeRow)
    } catch (error) {
      this.onError(error, 'unreadable site change notification')
    }
  }

  #apply(row: SiteChangeRow): void {
    if (this.#seen.has(row.id)) return
    this.#seen.set(row.id, row.created_at)
    // While listening nothing prunes by time: keep the newest few thousand.
    if (this.#seen.size > 5000) for (const id of [...this.#seen.keys()].slice(0, 2500)) this.#seen.delete(id)
    if (row.project_id) this.onChange({ projectId: row.project_id })
    if (row.hostname) this.onChange({ hostname: row.hostname })
  }
}
