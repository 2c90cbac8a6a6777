/**
 * Bearer secrets of the sign-in flow: authorization codes and refresh tokens. Each is 32 random bytes
 * after a prefix that says what it is (so a leaked one is recognisable in logs or scanners), shown to
 * its holder once and stored only as a SHA-256 hash.
 */
import { createHash, randomBytes } from 'node:crypto'

export const REFRESH_TOKEN_PREFIX = 'dsr_'
export const AUTHORIZATION_CODE_PREFIX = 'dsc_'

export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`

export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex')

/** A random identifier for rows that are addressed in URLs (pending sign-ins), not guessable. */
export const newOpaqueId = (): string => randomBytes(24).toString('base64url')
