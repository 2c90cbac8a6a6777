/**
 * HTTP/1.1 over a bare socket: the request target goes out byte for byte (Node's client refuses many of
 * the paths a hostile client sends), and the answer is read whole, chunked bodies decoded.
 */
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Map<string, string>
  body: Buffer
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at)
    if (lineEnd === -1) break
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** GET (or `method`) `target` with `host`; a string target goes out as its UTF-8 bytes, a Buffer as it is. */
export function rawRequest(
  port: number,
  target: string | Buffer,
  host: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' })
    const chunks: Buffer[] = []
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const raw = Buffer.concat(chunks)
      const headEnd = raw.indexOf('\r\n\r\n')
      if (headEnd === -1) {
        reject(new Error(`no HTTP answer (${raw.length} bytes)`))
        return
      }
      const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n')
      const headers = new Map<string, string>()
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
      }
      const rest = raw.subarray(headEnd + 4)
      const body = headers.get('transfer-encoding')?.includes('chunked') ? dechunk(rest) : rest
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body })
    })
    const head = Buffer.from(`${method} `, 'latin1')
    const path = typeof target === 'string' ? Buffer.from(target, 'utf8') : target
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    const tail = Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`, 'latin1')
    // Written, not ended: Node's server drops a half-closed client's request unless it answers at once.
    socket.write(Buffer.concat([head, path, tail]))
  })
}
