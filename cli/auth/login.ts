/** The browser sign-in of `docsctl login`: discovery, PKCE, the loopback callback, the code exchange. */
import type { Writable } from 'node:stream'
import { createPkcePair, createState } from '../../lib/pkce.js'
import { ApiClient, type User } from '../api.js'
import { type StoredSession, writeSession } from '../credentials.js'
import { startCallbackServer } from './loopback.js'
import { clientId, discover, exchangeCode } from './session.js'

export interface LoginOptions {
  apiUrl: string
  port: number
  timeoutSeconds: number
  openBrowser: boolean
  stdout: Writable
  env?: NodeJS.ProcessEnv
}

export async function signIn(options: LoginOptions): Promise<{ session: StoredSession; user: User }> {
  const metadata = await discover(options.apiUrl)
  const pkce = createPkcePair()
  const state = createState()
  const callback = await startCallbackServer({
    port: options.port,
    state,
    timeoutSeconds: options.timeoutSeconds,
  })
  try {
    const authorizeUrl = new URL(metadata.authorization_endpoint)
    authorizeUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }).toString()

    if (options.openBrowser) {
      options.stdout.write(
        `Opening your browser to sign in. If it does not open, visit this URL:\n${authorizeUrl}\n`,
      )
      await openQuietly(authorizeUrl.toString())
    } else {
      options.stdout.write(`Open this URL in your browser to sign in:\n${authorizeUrl}\n`)
    }
    options.stdout.write(`Waiting for the sign-in (up to ${options.timeoutSeconds} s)…\n`)

    const code = await callback.code
    const session = await exchangeAndIdentify(
      options.apiUrl,
      metadata,
      code,
      pkce.verifier,
      callback.redirectUri,
    )
    await writeSession(session.session, options.env)
    return session
  } finally {
    await callback.close()
  }
}

async function exchangeAndIdentify(
  apiUrl: string,
  metadata: Awaited<ReturnType<typeof discover>>,
  code: string,
  verifier: string,
  redirectUri: string,
): Promise<{ session: StoredSession; user: User }> {
  const session = await exchangeCode(apiUrl, metadata, { code, verifier, redirectUri })
  const user = await new ApiClient({ apiUrl, token: () => session.accessToken }).me()
  return { session: { ...session, email: user.email }, user }
}

/** A missing browser (a server, a container) is not an error: the URL is already printed. */
async function openQuietly(url: string): Promise<void> {
  try {
    const { default: open } = await import('open')
    const child = await open(url)
    child.on('error', () => {})
  } catch {
    // Printed above; the user opens it by hand.
  }
}
