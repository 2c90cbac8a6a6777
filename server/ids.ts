import { randomBytes } from 'node:crypto'

// Base32 digits in ASCII order, so ids compare as strings in the order their bytes compare.
const alphabet = '234567abcdefghijklmnopqrstuvwxyz'

/** Lowercase base32 without padding, in ASCII order: DNS-safe, so a deployment id fits in a host name. */
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

let lastMillisecond = 0
let lastTail = 0

/**
 * `prj_…`, `dpl_…`, `usr_…`: a prefix naming the kind, then 80 bits that sort by creation time: 48 of
 * milliseconds, then 32 random bits, incremented instead for a second id in the same millisecond. Lists
 * ordered by (created_at, id) are then in creation order even when two rows share a timestamp.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let tail: number
  if (now <= lastMillisecond && lastTail < 0xffffffff) {
    tail = lastTail + 1
    now = lastMillisecond
  } else {
    tail = randomBytes(4).readUInt32BE(0) >>> 1 // room to count up within one millisecond
  }
  lastMillisecond = now
  lastTail = tail
  const bytes = Buffer.alloc(10)
  bytes.writeUIntBE(now, 0, 6)
  bytes.writeUInt32BE(tail, 6)
  return `${prefix}_${base32(bytes)}`
}

export const nowIso = (): string => new Date().toISOString()
