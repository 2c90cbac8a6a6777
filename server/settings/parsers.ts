/**
 * The small parsers the settings table (table.ts) is written with: each turns the text of a flag or an
 * environment variable into a typed value, or refuses it with the phrase an operator reads
 * (`expected a whole number from 0 to 65535, got "eighty"`). `accepts` is the same phrase's "what"
 * part, shown in the generated reference, so the docs and the error say the same thing.
 */
import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { expected, ValueRejected } from './errors.js'

export interface Parser<T> {
  /** What a value must look like: "a whole number from 0 to 65535". */
  readonly accepts: string
  /** The typed value of a non-empty text; throws ValueRejected saying what to write instead. */
  parse(text: string): T
}

/** A whole number within bounds, e.g. a port, a limit or a number of seconds. */
export function wholeNumber(min: number, max: number): Parser<number> & { min: number; max: number } {
  const accepts = `a whole number from ${min} to ${max}`
  return {
    accepts,
    min,
    max,
    parse(text) {
      const trimmed = text.trim()
      const number = Number(trimmed)
      if (!/^\d+$/.test(trimmed) || number < min || number > max) throw expected(accepts, trimmed)
      return number
    },
  }
}

/** A size from 0 up, in a unit named by the message ("a whole number of MB"). */
export function wholeAmount(unit: 'bytes' | 'MB', max: number): Parser<number> {
  const accepts = `a whole number of ${unit}`
  return {
    accepts,
    parse(text) {
      const trimmed = text.trim()
      if (!/^\d+$/.test(trimmed) || Number(trimmed) > max) throw expected(accepts, trimmed)
      return Number(trimmed)
    },
  }
}

/** One of a few words, as written. */
export function oneOf<const Word extends string>(words: readonly Word[]): Parser<Word> {
  const accepts = `one of ${words.join(', ')}`
  return {
    accepts,
    parse(text) {
      const trimmed = text.trim()
      if (!(words as readonly string[]).includes(trimmed)) throw expected(accepts, trimmed)
      return trimmed as Word
    },
  }
}

/** `true` or `false`, in any case. */
export const trueOrFalse: Parser<boolean> = {
  accepts: 'true or false',
  parse(text) {
    const word = text.trim().toLowerCase()
    if (word !== 'true' && word !== 'false') throw expected('true or false', word)
    return word === 'true'
  },
}

/** Text kept as given apart from surrounding spaces: names, ids, regions. */
export const plainText: Parser<string> = { accepts: 'text', parse: (text) => text.trim() }

/** A credential, kept byte for byte; `minLength` for the ones the server relies on being hard to guess. */
export function secret(minLength = 0, kind = 'characters'): Parser<string> {
  const accepts = minLength > 0 ? `at least ${minLength} ${kind}` : 'a secret'
  return {
    accepts,
    parse(text) {
      // The value is a secret: the message gives its length, never the text.
      if (text.length < minLength) throw new ValueRejected(`expected ${accepts}, got ${text.length}`)
      return text
    },
  }
}

/** A folder, resolved against the working directory at start. */
export const folder: Parser<string> = { accepts: 'a folder path', parse: (text) => resolve(text.trim()) }

/** A host name with an optional port, lower-cased: `docs.example.com`, `localhost:8080`. */
export const hostName: Parser<string> = {
  accepts: 'a host name like docs.example.com or localhost:8080',
  parse(text) {
    const value = text.trim().toLowerCase()
    if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(value) || value.startsWith('.') || value.endsWith('.'))
      throw expected(hostName.accepts, value)
    return value
  },
}

/** A URL whose scheme matches, kept as given: `postgres://…`, `redis://…`. */
export function urlOf(scheme: RegExp, accepts: string): Parser<string> {
  return {
    accepts,
    parse(text) {
      const value = text.trim()
      if (!scheme.test(value)) throw expected(accepts, value)
      return value
    },
  }
}

const isHttpUrl = (value: string): boolean => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

/** An http:// or https:// URL, without trailing slashes. */
export const httpUrl: Parser<string> = {
  accepts: 'an http:// or https:// URL',
  parse(text) {
    const value = text.trim()
    if (!isHttpUrl(value)) throw expected(httpUrl.accepts, value)
    return value.replace(/\/+$/, '')
  },
}

/** An https:// URL; plain http only to a loopback host (a provider on the same machine, in tests). */
export function secureUrl(isLoopbackHost: (host: string) => boolean): Parser<string> {
  return {
    accepts: 'an https:// URL (http:// only on loopback)',
    parse(text) {
      const value = text.trim()
      if (!isHttpUrl(value)) throw expected(httpUrl.accepts, value)
      if (new URL(value).protocol === 'http:' && !isLoopbackHost(new URL(value).hostname))
        throw new ValueRejected(`use https (plain http is accepted only on loopback), got "${value}"`)
      return value
    },
  }
}

/** A lower-case SQL identifier: a PostgreSQL schema name. */
export const sqlIdentifier: Parser<string> = {
  accepts: 'a lowercase SQL identifier',
  parse(text) {
    const value = text.trim()
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) throw expected(sqlIdentifier.accepts, value)
    return value
  },
}

/** Comma-separated entries, each trimmed and checked by `entry` (which throws ValueRejected); blanks dropped. */
export function commaList<T>(accepts: string, entry: (text: string) => T): Parser<T[]> {
  return {
    accepts,
    parse: (text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map(entry),
  }
}

/** One entry of --trust-proxy as proxy-addr (Fastify's trustProxy) reads it: an address, a CIDR or a named range. */
function isProxyAddress(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true
  const [address = '', bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

export const proxyAddresses = commaList(
  'addresses or CIDRs like 10.0.0.1,192.168.0.0/16,::1 (or loopback, linklocal, uniquelocal)',
  (entry) => {
    if (!isProxyAddress(entry)) throw expected(proxyAddresses.accepts, entry)
    return entry
  },
)

/** IPv4 and IPv6 addresses, comma-separated. */
export const ipAddresses = commaList('IPv4 or IPv6 addresses, comma-separated', (entry) => {
  if (isIP(entry) === 0) throw new ValueRejected(`"${entry}" is not an IPv4 or IPv6 address`)
  return entry
})

/** `1.1.1.1`, `127.0.0.1:5353`, `[::1]:53` or `::1`: what `dns.Resolver#setServers` accepts. */
export const resolverAddress: Parser<string> = {
  accepts: 'an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)',
  parse(text) {
    const value = text.trim()
    const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value)
    const withPort = /^([^:]+):(\d{1,5})$/.exec(value)
    const valid =
      isIP(value) !== 0 ||
      (bracketed !== null && isIP(bracketed[1] ?? '') === 6 && Number(bracketed[2]) <= 65535) ||
      (withPort !== null && isIP(withPort[1] ?? '') === 4 && Number(withPort[2]) <= 65535)
    if (!valid) throw expected(resolverAddress.accepts, value)
    return value
  },
}

/** Hosts a Git fetch may reach: `host` or `host:port`, lower-cased, or `*` for any. */
export const gitHosts = commaList(
  'host names like git.example.com or git.example.com:8443 (or *)',
  (entry) => {
    const host = entry.toLowerCase()
    if (host !== '*' && !/^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(host))
      throw expected(gitHosts.accepts, host)
    return host
  },
)

/** Where S3 blobs go: `s3://bucket` or `s3://bucket/prefix`. */
export const s3Location: Parser<{ bucket: string; prefix: string }> = {
  accepts:
    's3://bucket or s3://bucket/prefix (bucket: 3-63 of a-z 0-9 . -; prefix: letters, digits, . _ - and /)',
  parse(text) {
    const value = text.trim()
    // Bucket names: 3–63 of a-z 0-9 . - (S3's rules); the prefix: path segments without . or .. alone.
    const parsed = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value)
    const prefix = (parsed?.[2] ?? '').replace(/\/+$/, '')
    if (
      !parsed ||
      (prefix !== '' && !/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(prefix))
    )
      throw expected(s3Location.accepts, value)
    return { bucket: parsed[1] ?? '', prefix }
  },
}

/**
 * Where a CDN purge goes: a Cloudflare zone, a Fastly service, the Varnish nodes running
 * deploy/varnish.vcl, or a webhook of the operator's own.
 */
export type CdnPurgeDestination =
  | { kind: 'cloudflare' | 'fastly'; id: string }
  | { kind: 'varnish'; urls: string[] }
  | { kind: 'webhook'; url: string }

const varnishNodes = commaList('varnish:<url>[,<url>…] (each an http:// or https:// URL)', (entry) =>
  httpUrl.parse(entry),
)

export const cdnPurgeDestination: Parser<CdnPurgeDestination> = {
  accepts: 'cloudflare:<zone id>, fastly:<service id>, varnish:<url>[,<url>…] or webhook:<url>',
  parse(text) {
    const target = text.trim()
    const [kind = '', ...rest] = target.split(':')
    const value = rest.join(':')
    if (kind === 'webhook') return { kind, url: httpUrl.parse(value) }
    if (kind === 'varnish') {
      const urls = varnishNodes.parse(value)
      if (urls.length === 0) throw expected(varnishNodes.accepts, target)
      return { kind, urls }
    }
    if (kind !== 'cloudflare' && kind !== 'fastly') throw expected(cdnPurgeDestination.accepts, target)
    if (!/^[A-Za-z0-9]{1,64}$/.test(value))
      throw expected(
        `${kind}:<${kind === 'cloudflare' ? 'zone' : 'service'} id> (letters and digits)`,
        target,
      )
    return { kind, id: value }
  },
}

/** A GitHub App's id: digits. */
export const appId: Parser<string> = {
  accepts: "the App's numeric id",
  parse(text) {
    const value = text.trim()
    if (!/^\d+$/.test(value)) throw expected(appId.accepts, value)
    return value
  },
}

/** A private key: PEM text, or the path of a file holding it (read at start). */
export const pemOrFile: Parser<string> = {
  accepts: 'PEM text or a readable .pem file',
  parse(text) {
    const value = text.trim()
    if (value.startsWith('-----BEGIN')) return value
    try {
      return readFileSync(value, 'utf8')
    } catch {
      throw expected(pemOrFile.accepts, value)
    }
  },
}
