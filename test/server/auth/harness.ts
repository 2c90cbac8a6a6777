/**
 * Test harness for sign-in: an app on a fresh temp data folder, a CLI side that makes PKCE pairs, and
 * a small browser (cookie jar, manual redirects) that reaches the app through inject() and anything
 * else (the OpenID Connect provider) through real HTTP.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import type { TestContext } from 'node:test'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { buildApp } from '../../../server/app.js'
import type { SignInConfig } from '../../../server/auth/oauth/settings.js'
import { defaultConfig, type ServerConfig } from '../../../server/config.js'
import { type Engine, testConfig } from '../helper.js'

export const PUBLIC_URL = 'http://localhost:8080'

export async function buildTestApp(
  t: TestContext,
  options: {
    engine?: Engine
    signIn?: Partial<SignInConfig>
    config?: Partial<ServerConfig>
    logger?: FastifyServerOptions['logger']
  } = {},
): Promise<{ app: FastifyInstance; config: ServerConfig }> {
  const base = defaultConfig()
  const config = await testConfig(t, options.engine ?? 'sqlite', {
    ...options.config,
    signIn: { ...base.signIn, rateLimitPerMinute: 100_000, ...options.signIn },
  })
  const app = await buildApp(config, options.logger === undefined ? {} : { logger: options.logger })
  t.after(() => app.close())
  return { app, config }
}

/** The app on a real loopback socket, for the CLI or a browser to reach at `apiUrl`. */
export async function listeningTestApp(t: TestContext): Promise<{ app: FastifyInstance; apiUrl: string }> {
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, apiUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

/** A stream to give `docsctl login` as its stdout, and the authorize URL once it prints one. */
export function watchForAuthorizeUrl(): { stdout: PassThrough; authorizeUrl: Promise<string> } {
  const stdout = new PassThrough()
  let printed = ''
  const authorizeUrl = new Promise<string>((resolve) => {
    stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8')
      const match = /https?:\/\/\S+\/oauth\/authorize\?\S+/.exec(printed)
      if (match) resolve(match[0])
    })
  })
  return { stdout, authorizeUrl }
}

/** What `docsctl login` holds while the browser is away. */
export interface CliLogin {
  verifier: string
  challenge: string
  state: string
  redirectUri: string
  authorizeUrl: string
}

export function startCliLogin(overrides: Record<string, string> = {}): CliLogin {
  const verifier = randomBytes(48).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const state = randomBytes(16).toString('base64url')
  const redirectUri = `http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'docsctl',
    redirect_uri: redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  })
  return { verifier, challenge, state, redirectUri, authorizeUrl: `${PUBLIC_URL}/oauth/authorize?${params}` }
}

export interface BrowserResponse {
  status: number
  url: string
  location: string | undefined
  headers: Record<string, string>
  body: string
}

/** Cookies per origin, enough for the flows here (no expiry, no domain matching beyond origin). */
export class Browser {
  readonly #app: FastifyInstance
  readonly #cookies = new Map<string, Map<string, string>>()
  /** Every URL visited, for checks that nothing leaked into places it should not. */
  readonly visited: string[] = []

  constructor(app: FastifyInstance) {
    this.#app = app
  }

  #cookieHeader(url: URL): string | undefined {
    const jar = this.#cookies.get(url.origin)
    return jar?.size ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : undefined
  }

  #store(url: URL, setCookies: string[]): void {
    const jar = this.#cookies.get(url.origin) ?? new Map<string, string>()
    for (const line of setCookies) {
      const [pair = ''] = line.split(';')
      const index = pair.indexOf('=')
      const name = pair.slice(0, index).trim()
      const value = pair.slice(index + 1).trim()
      if (/max-age=0/i.test(line) || value === '') jar.delete(name)
      else jar.set(name, value)
    }
    this.#cookies.set(url.origin, jar)
  }

  async request(
    method: 'GET' | 'POST',
    target: string,
    form?: Record<string, string>,
  ): Promise<BrowserResponse> {
    const url = new URL(target)
    this.visited.push(url.href)
    const headers: Record<string, string> = {}
    const cookie = this.#cookieHeader(url)
    if (cookie) headers.cookie = cookie
    const payload = form ? new URLSearchParams(form).toString() : undefined
    if (payload !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    if (url.origin === PUBLIC_URL) {
      const response = await this.#app.inject({
        method,
        url: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host, origin: PUBLIC_URL },
        ...(payload !== undefined ? { payload } : {}),
      })
      const raw = response.headers['set-cookie']
      this.#store(url, raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)])
      const flat: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) flat[name] = String(value)
      return {
        status: response.statusCode,
        url: url.href,
        location:
          response.headers.location === undefined
            ? undefined
            : new URL(String(response.headers.location), url).href,
        headers: flat,
        body: response.body,
      }
    }
    const response = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      ...(payload !== undefined ? { body: payload } : {}),
    })
    this.#store(url, response.headers.getSetCookie())
    const flat: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      flat[name] = value
    })
    const location = response.headers.get('location')
    return {
      status: response.status,
      url: url.href,
      location: location === null ? undefined : new URL(location, url).href,
      headers: flat,
      body: await response.text(),
    }
  }

  /** Follows redirects until a page is shown or the browser is sent to `stopAt` (the CLI's listener). */
  async navigate(target: string, stopAt: string, form?: Record<string, string>): Promise<BrowserResponse> {
    let response = await this.request(form ? 'POST' : 'GET', target, form)
    for (let hops = 0; hops < 20; hops++) {
      if (!response.location || response.status < 300 || response.status >= 400) return response
      if (response.location.startsWith(stopAt)) return response
      response = await this.request('GET', response.location)
    }
    throw new Error(`too many redirects from ${target}`)
  }
}

/** Reads `<input type="hidden" name=… value=…>` fields and the form action out of a page. */
export function readForm(html: string): { action: string | undefined; fields: Record<string, string> } {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input\b[^>]*>/g)) {
    const tag = match[0]
    const name = /\bname="([^"]*)"/.exec(tag)?.[1]
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1]
    if (name && value !== undefined)
      fields[name] = value.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)))
  }
  return { action: /<form\b[^>]*\baction="([^"]*)"/.exec(html)?.[1], fields }
}

/** The CLI's side of the callback: code and state from the URL the browser was sent to. */
export function callbackParams(location: string | undefined): URLSearchParams {
  if (!location) throw new Error('the browser was not sent back to the CLI')
  return new URL(location).searchParams
}

export async function exchangeCode(
  app: FastifyInstance,
  body: Record<string, string>,
  as: 'form' | 'json' = 'form',
): Promise<{ status: number; json: Record<string, unknown>; headers: Record<string, unknown> }> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      host: 'localhost:8080',
      'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    },
    payload: as === 'form' ? new URLSearchParams(body).toString() : JSON.stringify(body),
  })
  return {
    status: response.statusCode,
    json: response.json() as Record<string, unknown>,
    headers: response.headers,
  }
}

/** The token request body that redeems `code` for the CLI that started `login`. */
export const codeGrant = (login: CliLogin, code: string, overrides: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  client_id: 'docsctl',
  code,
  redirect_uri: login.redirectUri,
  code_verifier: login.verifier,
  ...overrides,
})

/** The browser part of a local sign-in: returns the code the CLI's listener receives. */
export async function localSignInCode(
  app: FastifyInstance,
  email: string,
  login = startCliLogin(),
): Promise<{ login: CliLogin; code: string }> {
  const browser = new Browser(app)
  const page = await browser.navigate(login.authorizeUrl, login.redirectUri)
  const form = readForm(page.body)
  const back = await browser.navigate(`${PUBLIC_URL}${form.action}`, login.redirectUri, {
    ...form.fields,
    email,
  })
  return { login, code: callbackParams(back.location).get('code') ?? '' }
}

/** The whole local sign-in, as `docsctl login` and a browser would do it; returns the tokens. */
export async function signInLocally(
  app: FastifyInstance,
  email: string,
): Promise<{ accessToken: string; refreshToken: string; login: CliLogin }> {
  const { login, code } = await localSignInCode(app, email)
  const tokens = await exchangeCode(app, codeGrant(login, code))
  if (tokens.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(tokens.json)}`)
  return {
    accessToken: String(tokens.json.access_token),
    refreshToken: String(tokens.json.refresh_token),
    login,
  }
}
