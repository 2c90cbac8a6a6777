/**
 * Calls a minute per client address (a request, or each call of a JSON-RPC batch), counted in fixed
 * one-minute windows in this process. The
 * address is the socket's, or the forwarded client's when the socket is a trusted proxy (the same
 * rule, and the same proxy-addr, as Fastify's `trustProxy` for the API).
 */
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { LRUCache } from 'lru-cache'

const windowMs = 60_000

export class ClientRateLimit {
  readonly #windows = new LRUCache<string, { count: number; endsAt: number }>({ max: 100_000 })
  readonly #trust: (address: string, hop: number) => boolean

  constructor(
    private readonly perMinute: number,
    trustProxy: readonly string[],
  ) {
    this.#trust = trustProxy.length ? proxyAddr.compile([...trustProxy]) : () => false
  }

  clientAddress(request: IncomingMessage): string {
    return proxyAddr(request, this.#trust)
  }

  /** Counts `calls` (one request, or a JSON-RPC batch's calls); the seconds until the window ends when the client is over its limit. */
  take(request: IncomingMessage, calls = 1, now = Date.now()): { retryAfterSeconds: number } | undefined {
    const address = this.clientAddress(request)
    let window = this.#windows.get(address)
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs }
      this.#windows.set(address, window)
    }
    window.count += calls
    if (window.count <= this.perMinute) return undefined
    return { retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) }
  }
}
