/**
 * Request logs of the sign-in routes without secrets. Fastify logs each request's URL, and sign-in URLs
 * carry codes, states and pending sign-in ids in their query; those values become "[redacted]".
 */
import type { FastifyRequest } from 'fastify'

const SECRET_PARAMS = new Set([
  'code',
  'state',
  'code_verifier',
  'code_challenge',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'request',
  'csrf',
  'iss_state',
])

export function redactUrl(url: string): string {
  const index = url.indexOf('?')
  if (index === -1) return url
  const params = new URLSearchParams(url.slice(index + 1))
  const kept = [...params].map(([name, value]) =>
    SECRET_PARAMS.has(name.toLowerCase()) ? `${name}=[redacted]` : `${name}=${encodeURIComponent(value)}`,
  )
  return `${url.slice(0, index)}?${kept.join('&')}`
}

/** Fastify's default request serializer, with the URL redacted and never any header. */
export function redactedRequestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }
}

/**
 * pino `redact` settings for the server's root logger (`Fastify({logger: {level, redact}})`), so that
 * a header logged by any route, now or later, never shows a credential.
 */
export const secretLogRedaction = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.authorization',
    'headers.cookie',
    'res.headers["set-cookie"]',
    'res.headers.location',
  ],
  censor: '[redacted]',
}
