/**
 * The request headers a site answer depends on, read in one pass over `rawHeaders`, which also counts
 * the Host headers (`request.headers` keeps one). Node 20's server reads `request.headers.host` itself
 * for its missing-Host check, so the headers object is built anyway: the pass is for the count.
 *
 * A request must name one Host. Node keeps the first of several `Host` headers and drops the rest, so
 * a proxy that routes on the last one and this server would disagree about which site is asked for.
 */
import type { ServerResponse } from 'node:http'

export interface SiteRequestHeaders {
  /** The first Host header, as sent ('' when there is none). */
  host: string
  /** How many Host headers the request carried: more than one is refused. */
  hostCount: number
  /** These three as Node's `request.headers` has them: several of one name joined by ', '. */
  accept: string | undefined
  acceptEncoding: string | undefined
  ifNoneMatch: string | undefined
}

const joined = (earlier: string | undefined, value: string): string =>
  earlier === undefined ? value : `${earlier}, ${value}`

/** One pass over `[name, value, name, value, …]`; names compared without case. */
export function readSiteHeaders(raw: readonly string[]): SiteRequestHeaders {
  const headers: SiteRequestHeaders = {
    host: '',
    hostCount: 0,
    accept: undefined,
    acceptEncoding: undefined,
    ifNoneMatch: undefined,
  }
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!
    // Only these lengths can be a header read here: most names are skipped without lowercasing.
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host' && headers.hostCount++ === 0) headers.host = raw[index + 1]!
        break
      case 6:
        if (name.toLowerCase() === 'accept') headers.accept = joined(headers.accept, raw[index + 1]!)
        break
      case 13:
        if (name.toLowerCase() === 'if-none-match')
          headers.ifNoneMatch = joined(headers.ifNoneMatch, raw[index + 1]!)
        break
      case 15:
        if (name.toLowerCase() === 'accept-encoding')
          headers.acceptEncoding = joined(headers.acceptEncoding, raw[index + 1]!)
        break
    }
  }
  return headers
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
