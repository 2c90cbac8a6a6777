/**
 * Proof Key for Code Exchange (RFC 7636), S256 only, for both ends of a sign-in: the CLI creates the
 * pair, the server checks the verifier against the challenge, and the server does the same again as a
 * client of GitHub. The plain method is never offered: it would let anyone who sees the authorization
 * request redeem the code, which is exactly what PKCE exists to prevent.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export interface PkcePair {
  verifier: string
  challenge: string
}

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
/** base64url of a 32-byte SHA-256 digest, without padding, is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export const isCodeVerifier = (value: string): boolean => CODE_VERIFIER.test(value)

export const isS256Challenge = (value: string): boolean => S256_CHALLENGE.test(value)

export const s256Challenge = (codeVerifier: string): string =>
  createHash('sha256').update(codeVerifier, 'ascii').digest('base64url')

/** 32 random bytes as base64url: a 43-character verifier, inside the 43–128 the RFC allows. */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: s256Challenge(verifier) }
}

/** The `state` value that ties an authorization response to the request that asked for it. */
export const createState = (): string => randomBytes(24).toString('base64url')

/** True when `codeVerifier` is well formed and hashes to `codeChallenge`; compared in constant time. */
export function verifyCodeVerifier(codeVerifier: string, codeChallenge: string): boolean {
  if (!isCodeVerifier(codeVerifier) || !isS256Challenge(codeChallenge)) return false
  const expected = Buffer.from(codeChallenge, 'ascii')
  const actual = Buffer.from(s256Challenge(codeVerifier), 'ascii')
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
