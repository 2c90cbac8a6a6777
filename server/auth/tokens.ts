/**
 * Bearer tokens: a kind prefix (`dsa_` user access token, `dk_` deploy key) and 32 random bytes in
 * base64url. Only the sha256 hash is stored, so a database leak gives no usable credential.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const userTokenPrefix = 'dsa_'
export const deployKeyPrefix = 'dk_'

export interface IssuedToken {
  /** Shown to the caller once, never stored. */
  token: string
  hash: string
}

export function issueToken(prefix: string): IssuedToken {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`
  return { token, hash: hashToken(token) }
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/** Compare secrets without leaking, through timing, how many leading characters matched. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** A bearer token looks right before any lookup: known prefix, base64url body of the right length. */
export function tokenKind(token: string): 'user' | 'deployKey' | undefined {
  if (/^dsa_[A-Za-z0-9_-]{43}$/.test(token)) return 'user'
  if (/^dk_[A-Za-z0-9_-]{43}$/.test(token)) return 'deployKey'
  return undefined
}
