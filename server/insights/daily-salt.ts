/**
 * The day's salt of visitor hashes, as Plausible counts unique visitors: `sha256(salt + project +
 * address + user agent)`, where the salt is random, made once a UTC day by whichever replica asks first
 * (kept with the other replica-shared secrets, migration 012), and deleted the day after. The same
 * reader hashes alike on every replica today and cannot be recognised tomorrow; the address and the
 * user agent are never stored.
 */
import { hash, randomBytes } from 'node:crypto'
import type { Repositories } from '../db/repositories/index.js'

const prefix = 'insights-salt-'

const dayMs = 86_400_000
/** The last day `utcDay` wrote: every event asks, and nearly all of them for the same day. */
let lastDay = { number: Number.NaN, text: '' }

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(ms: number): string {
  const number = Math.floor(ms / dayMs)
  if (number !== lastDay.number)
    lastDay = { number, text: new Date(number * dayMs).toISOString().slice(0, 10) }
  return lastDay.text
}

export class DailySalt {
  #day = ''
  #salt: Promise<string> | undefined
  /** The salt of `#day` once it is stored, so a visitor is hashed without waiting. */
  #known: { day: string; salt: string } | undefined

  constructor(private readonly repos: Pick<Repositories, 'sharedSecrets'>) {}

  /** The salt of `day`; asking for a new day deletes the salts of the days before the one before it. */
  salt(day: string): Promise<string> {
    if (day !== this.#day || !this.#salt) {
      this.#day = day
      const name = `${prefix}${day}` as const
      const salt = this.repos.sharedSecrets
        .findOrStore(name, () => randomBytes(32).toString('base64url'))
        .then(async (stored) => {
          // Yesterday's is kept for events a slow replica still hashes for it; older ones go.
          const yesterday = utcDay(Date.parse(`${day}T00:00:00Z`) - dayMs)
          await this.repos.sharedSecrets.removeBefore(prefix, `${prefix}${yesterday}`)
          if (this.#day === day) this.#known = { day, salt: stored }
          return stored
        })
      this.#salt = salt
      // A failed lookup is tried again by the next event, not remembered.
      salt.catch(() => {
        if (this.#salt === salt) this.#salt = undefined
      })
      return salt
    }
    return this.#salt
  }

  /** The reader's hash for `day`: at once once the day's salt is known, else when it is. */
  visitor(day: string, projectId: string, address: string, userAgent: string): string | Promise<string> {
    const known = this.#known
    if (known?.day === day) return visitorHash(known.salt, projectId, address, userAgent)
    return this.salt(day).then((salt) => visitorHash(salt, projectId, address, userAgent))
  }
}

const visitorHash = (salt: string, projectId: string, address: string, userAgent: string): string =>
  // One-shot: a `createHash` object is held by a weak handle, which every scavenge then visits.
  hash('sha256', `${salt}\n${projectId}\n${address}\n${userAgent}`, 'base64url').slice(0, 22)
