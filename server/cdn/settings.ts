/**
 * The shape of the CDN purge settings: where to send a purge when a site changes (Cloudflare purge by
 * Cache-Tag, Fastly purge by Surrogate-Key, the Varnish nodes of deploy/varnish.vcl by xkey, or a
 * webhook of your own), with its credential. Their flags,
 * variables, defaults and checks are in the settings table (server/settings/table.ts, rules.ts);
 * server/config.ts fills this shape.
 */
export type CdnPurgeTarget =
  | { kind: 'none' }
  | { kind: 'cloudflare'; zoneId: string; token: string; api: string }
  | { kind: 'fastly'; serviceId: string; token: string; api: string }
  | { kind: 'varnish'; nodes: string[] }
  | { kind: 'webhook'; url: string; secret: string | undefined }
