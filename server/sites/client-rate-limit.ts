/**
 * Calls a minute per client address to a site endpoint (reader events, MCP: a request, or each call of
 * a JSON-RPC batch), counted in fixed one-minute windows aligned to the clock. The address is the
 * socket's, or the forwarded client's when the socket is a trusted proxy (the same rule, and the same
 * proxy-addr, as Fastify's `trustProxy` for the API).
 *
 * With Redis configured (`--redis-url`) the windows live there, so several replicas behind one load
 * balancer share one budget per client, as the API's limit does. While Redis does not answer, each
 * process counts on its own (the limit still holds per replica) rather than refusing readers or
 * letting every call through.
 */
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { Redis } from 'ioredis'

const windowMs = 60_000
/**
 * Addresses counted in this process before it forgets them all: a flood of made-up forwarded addresses
 * costs a bounded map, and each address forgotten starts a fresh window. A plain Map emptied when full,
 * not an LRU: lru-cache allocates its whole capacity up front, 22 ms of CPU per limiter (measured), paid
 * by every app start.
 */
const maxAddresses = 100_000

/** Windows kept by every replica: a count per key that Redis forgets once its window is over. */
export interface SharedWindows {
  /** Adds `calls` to `key`'s count and returns the new count; rejects when the store does not answer. */
  add(key: string, calls: number, ttlMs: number): Promise<number>
}

/** Keys start with the API limit's name space (`docs-rate-limit:`), so one Redis holds all of them. */
const keyPrefix = 'docs-rate-limit:'

/** INCRBY and its expiry in one step, so a key never outlives its window (a crash between the two cannot leave one). */
const addScript = `local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`

/**
 * Shared windows in Redis (ioredis: commands fail at once while it is unreachable, nothing queues). The
 * script is defined once, so each call sends its SHA (EVALSHA), not its text; ioredis loads it again
 * on a Redis that has forgotten it.
 */
export function redisWindows(redis: Redis): SharedWindows {
  redis.defineCommand('docsWindowAdd', { numberOfKeys: 1, lua: addScript })
  const withCommand = redis as Redis & {
    docsWindowAdd(key: string, calls: number, ttlMs: number): Promise<number>
  }
  return {
    add: async (key, calls, ttlMs) =>
      Number(await withCommand.docsWindowAdd(`${keyPrefix}${key}`, calls, Math.max(1, Math.ceil(ttlMs)))),
  }
}

/**
 * A trust check that remembers its answer by address: proxy-addr parses the address (ipaddr.js) at
 * every call, about 2 KB of garbage a request on the serving thread. A list of proxies trusts an
 * address whatever its hop, so the hop is not part of the answer. Forwarded addresses are the
 * client's to choose: the map is emptied when full, like the windows.
 */
function rememberedTrust(trust: (address: string, hop: number) => boolean) {
  const answers = new Map<string, boolean>()
  return (address: string, hop: number): boolean => {
    let trusted = answers.get(address)
    if (trusted === undefined) {
      trusted = trust(address, hop)
      if (answers.size >= maxAddresses) answers.clear()
      answers.set(address, trusted)
    }
    return trusted
  }
}

/** A client over its limit: when it may call again. */
export interface Limited {
  retryAfterSeconds: number
}

export class ClientRateLimit {
  readonly #windows = new Map<string, { count: number; endsAt: number }>()
  readonly #trust: (address: string, hop: number) => boolean

  /**
   * `scope` names the endpoint in shared keys (`insights`, `mcp`), so one client's reader events and
   * MCP calls have separate budgets.
   */
  constructor(
    private readonly perMinute: number,
    trustProxy: readonly string[],
    private readonly scope: string,
    private readonly shared?: SharedWindows,
  ) {
    this.#trust = trustProxy.length ? rememberedTrust(proxyAddr.compile([...trustProxy])) : () => false
  }

  clientAddress(request: IncomingMessage): string {
    return proxyAddr(request, this.#trust)
  }

  /**
   * Counts `calls` (one request, or a JSON-RPC batch's calls) against the client's window; the seconds
   * until the window ends when the client is over its limit. `address` saves reading the client's
   * address again where the caller has it.
   */
  take(
    request: IncomingMessage,
    calls = 1,
    now = Date.now(),
    address = this.clientAddress(request),
  ): Limited | undefined | Promise<Limited | undefined> {
    const start = Math.floor(now / windowMs) * windowMs
    const endsAt = start + windowMs
    const verdict = (count: number): Limited | undefined =>
      count <= this.perMinute
        ? undefined
        : { retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)) }
    // Counted here, the answer comes at once: the hot path of a reader event waits for nothing.
    if (!this.shared) return verdict(this.#localCount(address, endsAt, calls))
    return this.shared
      .add(`${this.scope}:${address}:${start}`, calls, endsAt - now)
      .catch(() => this.#localCount(address, endsAt, calls))
      .then(verdict)
  }

  #localCount(address: string, endsAt: number, calls: number): number {
    let window = this.#windows.get(address)
    if (!window || window.endsAt !== endsAt) {
      if (!window && this.#windows.size >= maxAddresses) this.#windows.clear()
      window = { count: 0, endsAt }
      this.#windows.set(address, window)
    }
    window.count += calls
    return window.count
  }
}
