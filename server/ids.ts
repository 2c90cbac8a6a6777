import { randomBytes } from 'node:crypto'

const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'

/** Lowercase RFC 4648 base32 without padding: DNS-safe, so a deployment id fits in a host name. */
export function base32(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** `prj_…`, `dpl_…`, `usr_…`: a prefix naming the kind, then 80 random bits. */
export const newId = (prefix: string): string => `${prefix}_${base32(randomBytes(10))}`

export const nowIso = (): string => new Date().toISOString()
