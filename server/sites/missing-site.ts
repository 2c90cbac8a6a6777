/**
 * The one answer for a site address that serves nothing: a host that is no site, a project that exists
 * but has nothing live yet, a preview that is not ready, a verified domain without a live deployment.
 * Status, headers and body are the same for all of them and hold nothing of the request, so the answer
 * never tells whether a slug (or a preview token) exists.
 */
import { SANDBOXED_FILE_POLICY } from '../../compiler/security-headers.js'

const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>No docs site here</title><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.5rem;color:#17191c}p{color:#5f6670}</style></head><body><main><h1>No docs site here</h1><p>Nothing is published at this address. Check its spelling; if the site is yours, push a deployment and promote it to publish it.</p></main></body></html>\n`

export const missingSite = {
  status: 404,
  body: Buffer.from(html),
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': SANDBOXED_FILE_POLICY,
  },
} as const
