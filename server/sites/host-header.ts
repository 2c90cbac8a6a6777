/**
 * A request must name one Host. Node keeps the first of several `Host` headers and drops the rest, so
 * a proxy that routes on the last one and this server would disagree about which site is asked for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** True when the request carries more than one `Host` header. */
export function hasSeveralHosts(request: IncomingMessage): boolean {
  const raw = request.rawHeaders
  let seen = 0
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!
    if (name.length === 4 && name.toLowerCase() === 'host' && ++seen > 1) return true
  }
  return false
}

export function rejectSeveralHosts(response: ServerResponse): void {
  const body = 'A request must carry exactly one Host header\n'
  response.writeHead(400, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
  response.end(body)
}
