/**
 * A lean HTTP/1.1 client for load generators: a few keep-alive sockets, each carrying one request at a
 * time, requests written as ready-made bytes and answers read only as far as their status and length.
 * Node's own client spends tens of microseconds of CPU a request (agents, header objects, streams);
 * beside a load generator on the same core, that CPU is taken from the load generator and shows up in
 * the latencies it measures. Answers must carry a `Content-Length` or no body (as docs-server's events
 * endpoint does); a chunked answer is an error.
 */
import { connect, type Socket } from 'node:net'

interface Waiting {
  bytes: Buffer
  resolve: (status: number) => void
}

class Connection {
  #socket: Socket | undefined
  #buffered: Buffer = Buffer.alloc(0)
  #current: Waiting | undefined

  constructor(
    private readonly port: number,
    private readonly next: () => Waiting | undefined,
  ) {}

  get busy(): boolean {
    return this.#current !== undefined
  }

  send(waiting: Waiting): void {
    this.#current = waiting
    this.#open().write(waiting.bytes)
  }

  close(): void {
    this.#socket?.destroy()
  }

  #open(): Socket {
    if (this.#socket && !this.#socket.destroyed) return this.#socket
    const socket = connect({ port: this.port, host: '127.0.0.1', noDelay: true })
    socket.on('data', (chunk: Buffer) => this.#read(chunk))
    // A socket given up on (a close after an answer, then a new socket) settles nothing more.
    const lost = () => {
      if (this.#socket !== socket) return
      this.#socket = undefined
      this.#buffered = Buffer.alloc(0)
      this.#finish(0)
    }
    socket.on('error', lost)
    socket.on('close', lost)
    this.#socket = socket
    return socket
  }

  #read(chunk: Buffer): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk])
    const headEnd = this.#buffered.indexOf('\r\n\r\n')
    if (headEnd === -1) return
    const head = this.#buffered.subarray(0, headEnd).toString('latin1')
    const status = Number(head.slice(9, 12))
    if (/\r\ntransfer-encoding:/i.test(head)) {
      this.#socket?.destroy(new Error('a chunked answer'))
      return
    }
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
    if (this.#buffered.length < headEnd + 4 + length) return
    this.#buffered = this.#buffered.subarray(headEnd + 4 + length)
    if (/\r\nconnection:\s*close/i.test(head)) {
      this.#socket?.destroy()
      this.#socket = undefined
    }
    this.#finish(status)
  }

  /** Settles the current request (0: no answer) and takes the next waiting one. */
  #finish(status: number): void {
    const current = this.#current
    this.#current = undefined
    current?.resolve(status)
    const next = this.next()
    if (next) this.send(next)
  }
}

export class KeepAliveClient {
  readonly #queue: Waiting[] = []
  readonly #connections: Connection[]

  constructor(port: number, connections: number) {
    this.#connections = Array.from(
      { length: connections },
      () => new Connection(port, () => this.#queue.shift()),
    )
  }

  /** Sends `bytes` (one whole request) on a free connection, or when one frees; resolves to its status (0: lost). */
  request(bytes: Buffer): Promise<number> {
    return new Promise((resolve) => {
      const waiting = { bytes, resolve }
      const free = this.#connections.find((connection) => !connection.busy)
      if (free) free.send(waiting)
      else this.#queue.push(waiting)
    })
  }

  close(): void {
    for (const connection of this.#connections) connection.close()
  }
}

/** The bytes of an HTTP/1.1 request with a body. */
export function requestBytes(
  method: string,
  target: string,
  headers: Record<string, string>,
  body: Buffer,
): Buffer {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return Buffer.concat([
    Buffer.from(`${method} ${target} HTTP/1.1\r\n${lines.join('')}content-length: ${body.length}\r\n\r\n`),
    body,
  ])
}
