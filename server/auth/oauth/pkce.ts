/**
 * Proof Key for Code Exchange (RFC 7636), S256 only: the plain method would let anyone who sees the
 * authorization request redeem the code, which is exactly what PKCE exists to prevent.
 */
import { createHash, timingSafeEqual } from 'node:crypto'

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
/** base64url of a 32-byte SHA-256 digest, without padding, is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export const isCodeVerifier = (value: string): boolean => CODE_VERIFIER.test(value)

export const isS256Challenge = (value: string): boolean => S256_CHALLENGE.test(value)

export const s256Challenge = (codeVerifier: string): string =>
  createHash('sha256').update(codeVerifier, 'ascii').digest('base64url')

/** True when `codeVerifier` is well formed and hashes to `codeChallenge`; compared in constant time. */
export function verifyCodeVerifier(codeVerifier: string, codeChallenge: string): boolean {
  if (!isCodeVerifier(codeVerifier) || !isS256Challenge(codeChallenge)) return false
  const expected = Buffer.from(codeChallenge, 'ascii')
  const actual = Buffer.from(s256Challenge(codeVerifier), 'ascii')
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
