/**
 * A fetch for the MCP SDK's client that sends every request to one loopback port over real HTTP,
 * keeping the URL's host in the Host header: site hosts like `acme.docs.test` or a custom domain reach
 * the test server without DNS (as Chromium's --host-resolver-rules does in the browser tests).
 */
import { request } from 'node:http'

export function loopbackFetch(port: number): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value
      })
      headers.host = url.host
      const outgoing = request(
        { host: '127.0.0.1', port, path: url.pathname + url.search, method: init?.method ?? 'GET', headers },
        (incoming) => {
          const chunks: Buffer[] = []
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
          incoming.on('error', reject)
          incoming.on('end', () => {
            const status = incoming.statusCode ?? 500
            const responseHeaders = new Headers()
            for (const [name, value] of Object.entries(incoming.headers))
              if (value !== undefined)
                responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
            const body = status === 204 || status === 304 ? null : Buffer.concat(chunks)
            resolve(new Response(body, { status, headers: responseHeaders }))
          })
        },
      )
      outgoing.on('error', reject)
      const abort = () => outgoing.destroy(new Error('aborted'))
      init?.signal?.addEventListener('abort', abort, { once: true })
      outgoing.on('close', () => init?.signal?.removeEventListener('abort', abort))
      outgoing.end(typeof init?.body === 'string' ? init.body : undefined)
    })
}
