/**
 * A TCP relay on loopback in front of a real service (the shared PostgreSQL, an s3rver) that a test can
 * cut and restore: an outage of that service as its clients see it, without stopping the service
 * itself (the shared PostgreSQL must never stop). Cut, open connections are reset and new ones refused
 * (the port stops listening); restored, it listens on the same port again.
 *
 *     const relay = await startRelay(t, 5432)
 *     const app = await testApp(t, 'postgres', { databaseUrl: relay.url(postgresUrl) })
 *     await relay.cut()  // … the database is away …
 *     await relay.restore()
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export interface Relay {
  port: number
  /** `url` with its port replaced by the relay's. */
  url(url: string): string
  cut(): Promise<void>
  restore(): Promise<void>
  readonly isCut: boolean
}

export async function startRelay(
  t: { after: (fn: () => Promise<void>) => unknown },
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<Relay> {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve((server.address() as { port: number }).port)
      })
    })
  const newServer = () =>
    createServer((client) => {
      const upstream = createConnection(targetPort, targetHost)
      track(client)
      track(upstream)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
      client.pipe(upstream)
      upstream.pipe(client)
    })
  let server = newServer()
  const port = await listen(server, 0)
  let isCut = false
  const cut = async () => {
    if (isCut) return
    isCut = true
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const socket of sockets) socket.resetAndDestroy()
    await closed
  }
  t.after(cut)
  return {
    port,
    url: (url) => {
      const parsed = new URL(url)
      parsed.host = `127.0.0.1:${port}`
      return parsed.toString()
    },
    cut,
    restore: async () => {
      if (!isCut) return
      server = newServer()
      await listen(server, port)
      isCut = false
    },
    get isCut() {
      return isCut
    },
  }
}
