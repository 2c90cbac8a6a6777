/**
 * CDN purge settings: where to send a purge when a site changes (Cloudflare purge by Cache-Tag,
 * Fastly purge by Surrogate-Key, or a webhook of your own), with its credential. They join the
 * server's settings table (server/config.ts), so each is a flag and an environment variable.
 */
import { ConfigError } from '../config-error.js'

export type CdnPurgeTarget =
  | { kind: 'none' }
  | { kind: 'cloudflare'; zoneId: string; token: string; api: string }
  | { kind: 'fastly'; serviceId: string; token: string; api: string }
  | { kind: 'webhook'; url: string; secret: string | undefined }

export const cdnSettings = {
  cdnPurge: {
    flag: 'cdn-purge',
    env: 'DOCS_CDN_PURGE',
    description: 'purge a CDN on changes: cloudflare:<zone id>, fastly:<service id> or webhook:<https url>',
    default: undefined,
  },
  cdnPurgeToken: {
    flag: 'cdn-purge-token',
    env: 'DOCS_CDN_PURGE_TOKEN',
    description: 'Cloudflare API token, Fastly API key, or the webhook signing secret',
    default: undefined,
  },
  cdnPurgeApi: {
    flag: 'cdn-purge-api',
    env: 'DOCS_CDN_PURGE_API',
    description: "base URL of the CDN's API (default: Cloudflare's or Fastly's)",
    default: undefined,
  },
} as const

export type CdnSettingName = keyof typeof cdnSettings

const where = (name: CdnSettingName): string => `--${cdnSettings[name].flag} / ${cdnSettings[name].env}`

const httpUrl = (name: CdnSettingName, value: string): string => {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new ConfigError(`${where(name)}: expected an http:// or https:// URL, got "${value}"`)
  return value.replace(/\/+$/, '')
}

/** Reads and checks the CDN purge settings; `raw` gives a setting's flag, env or default value. */
export function readCdnConfig(raw: (name: CdnSettingName) => string | undefined): CdnPurgeTarget {
  const target = raw('cdnPurge')?.trim()
  if (!target) return { kind: 'none' }
  const token = raw('cdnPurgeToken')?.trim() || undefined
  const api = raw('cdnPurgeApi')?.trim() || undefined
  const [kind = '', ...rest] = target.split(':')
  const value = rest.join(':')
  if (kind === 'webhook') return { kind, url: httpUrl('cdnPurge', value), secret: token }
  if (kind !== 'cloudflare' && kind !== 'fastly')
    throw new ConfigError(
      `${where('cdnPurge')}: expected cloudflare:<zone id>, fastly:<service id> or webhook:<url>, got "${target}"`,
    )
  if (!/^[A-Za-z0-9]{1,64}$/.test(value))
    throw new ConfigError(
      `${where('cdnPurge')}: expected ${kind}:<${kind === 'cloudflare' ? 'zone' : 'service'} id> (letters and digits), got "${target}"`,
    )
  if (!token) throw new ConfigError(`${where('cdnPurgeToken')}: ${kind} purges need an API token`)
  return kind === 'cloudflare'
    ? {
        kind,
        zoneId: value,
        token,
        api: httpUrl('cdnPurgeApi', api ?? 'https://api.cloudflare.com/client/v4'),
      }
    : { kind, serviceId: value, token, api: httpUrl('cdnPurgeApi', api ?? 'https://api.fastly.com') }
}
