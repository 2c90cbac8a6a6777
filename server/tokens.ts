/**
 * Every secret the server hands out: a prefix that says what it is (so a leaked one is recognisable
 * in logs and by secret scanners) and 32 random bytes in base64url. The holder sees it once; only its
 * SHA-256 hash is stored, so a database leak gives no usable credential.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const tokenPrefixes = {
  /** A user's access token, sent as `Authorization: Bearer`. */
  accessToken: 'dsa_',
  /** A refresh token of the CLI's sign-in; rotated on every use. */
  refreshToken: 'dsr_',
  /** A single-use authorization code, redeemed within a minute. */
  authorizationCode: 'dsc_',
  /** A deploy key: deploys one project, nothing else. */
  deployKey: 'dk_',
} as const

export type TokenKind = keyof typeof tokenPrefixes

export interface IssuedToken {
  /** Shown to the caller once, never stored. */
  token: string
  hash: string
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

export function issueToken(kind: TokenKind): IssuedToken {
  const token = `${tokenPrefixes[kind]}${randomBytes(32).toString('base64url')}`
  return { token, hash: hashToken(token) }
}

/** A random identifier for rows addressed in URLs or forms (pending sign-ins, CSRF values): not guessable. */
export const newOpaqueId = (): string => randomBytes(24).toString('base64url')

/** Compare secrets without leaking, through timing, how many leading characters matched. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

const bearerShape = /^(dsa_|dk_)[A-Za-z0-9_-]{43}$/

/** What a bearer token claims to be, checked before any lookup: a known prefix and a body of the right length. */
export function bearerKind(token: string): 'accessToken' | 'deployKey' | undefined {
  const prefix = bearerShape.exec(token)?.[1]
  if (prefix === tokenPrefixes.accessToken) return 'accessToken'
  if (prefix === tokenPrefixes.deployKey) return 'deployKey'
  return undefined
}
