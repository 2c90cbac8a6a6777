import type { FastifyRequest } from 'fastify'
import { isLoopbackHost } from '../providers/index.js'

/**
 * The API's own origin as `request` reached it. On a loopback address (a local server started with
 * another --port) the request's host is used, so discovery works without --public-url; any other host
 * gets the configured public URL, which a forged Host header cannot change.
 */
export function apiOrigin(publicUrl: string, request: FastifyRequest): string {
  const host = request.host
  if (host === new URL(publicUrl).host) return publicUrl
  return isLoopbackHost(host.replace(/:\d+$/, '')) ? `http://${host}` : publicUrl
}
