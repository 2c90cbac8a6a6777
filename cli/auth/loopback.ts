/**
 * The temporary callback server of `docsctl login` (RFC 8252 loopback redirect): it listens on
 * 127.0.0.1 only, answers the one redirect that carries our `state`, then closes.
 */

import { createServer, type Server } from 'node:http'
import escapeHtml from 'escape-html'
import { CommandFailure } from './failure.js'

export interface CallbackServer {
  redirectUri: string
  /** Resolves with the authorization code, or rejects with a CommandFailure (denied, timeout). */
  code: Promise<string>
  close(): Promise<void>
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto"><h1>${title}</h1><p>${text}</p></body></html>`

export async function startCallbackServer(input: {
  port: number
  state: string
  timeoutSeconds: number
}): Promise<CallbackServer> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject }
  })
  // A rejection nobody awaits yet (the timeout firing before the caller waits) must not crash.
  code.catch(() => {})

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    const params = url.searchParams
    if (params.get('state') !== input.state) {
      // Not our login (a stale tab or a forged redirect): refuse it but keep waiting for ours.
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          page(
            'Sign-in not recognised',
            'This sign-in does not match the one docsctl started. Run docsctl login again.',
          ),
        )
      return
    }
    const error = params.get('error')
    if (error) {
      const description = params.get('error_description') ?? error
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Sign-in failed', escapeHtml(description)))
      settle?.reject(new CommandFailure(`Sign-in failed: ${description}. Run docsctl login to try again.`))
      return
    }
    const value = params.get('code')
    if (!value) {
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Sign-in failed', 'No code.'))
      return
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(page('Signed in', 'docsctl is signed in. You can close this tab and return to the terminal.'))
    settle?.resolve(value)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new CommandFailure(
            `Port ${input.port} is busy, so the sign-in callback cannot listen on it. Choose another with --port, e.g. docsctl login --port ${input.port === 8787 ? 8788 : 8787}.`,
          ),
        )
      else if (error.code === 'EACCES')
        reject(
          new CommandFailure(
            `Port ${input.port} may not be used by this user. Choose another with --port (1024–65535).`,
          ),
        )
      else reject(error)
    })
    server.listen(input.port, '127.0.0.1', () => resolve())
  })

  const timer = setTimeout(() => {
    settle?.reject(
      new CommandFailure(
        `Timed out after ${input.timeoutSeconds} s waiting for the browser sign-in. Run docsctl login again (or give more time with --timeout).`,
      ),
    )
  }, input.timeoutSeconds * 1000)
  timer.unref()

  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : input.port
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    code,
    close: async () => {
      clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
