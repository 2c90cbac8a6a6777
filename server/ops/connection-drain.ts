/**
 * Closing behind a keep-alive load balancer. Node's `server.close()` stops accepting connections but
 * goes on answering, with keep-alive, on the ones already open: a balancer that keeps sending never
 * lets them go, and one it leaves idle stays open for the keep-alive timeout (72 s), past the
 * shutdown grace. While draining, every answer carries `Connection: close` (Node ends the connection
 * once it is written), a connection whose answer was already under way is ended as soon as that
 * answer is written, and idle connections are closed at once.
 */
import type { Server, ServerResponse } from 'node:http'

export class ConnectionDrain {
  /** Read on every request of the hot path: one boolean until shutdown. */
  draining = false

  /** Called first for every request. */
  admit(response: ServerResponse): void {
    if (this.draining) response.setHeader('connection', 'close')
  }

  /** Stop keeping connections alive: idle ones close now, busy ones once their answer is written. */
  start(server: Server): void {
    this.draining = true
    // Node gives a connection this timeout when its answer has been written and it waits for the next
    // request: the shortest there is, so an answer in flight now ends its connection right after.
    server.keepAliveTimeout = 1
    server.closeIdleConnections()
  }
}
