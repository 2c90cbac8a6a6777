/** PKCE (RFC 7636, S256 only) and the `state` value that ties a callback to this login. */
import { createHash, randomBytes } from 'node:crypto'

export interface PkcePair {
  verifier: string
  challenge: string
}

/** 32 random bytes as base64url: a 43-character verifier, inside the 43–128 the RFC allows. */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: challengeFor(verifier) }
}

export const challengeFor = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url')

export const createState = (): string => randomBytes(24).toString('base64url')
