/**
 * docs.json's `api` settings of generated API pages (example languages, parameter display, the "Try
 * it" panel) and the origins those panels send requests to, which the site's CSP allows.
 * In: docs.json, and each operation a page is made of. Out: the page settings, a warning for a
 * setting this server does not support, and the panels' origins.
 */
import type { DocsConfig } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import { PLAYGROUND_ANY_SERVER } from '../security-headers.js'
import type { ApiOperation } from './operations.js'
import type { ApiPageSettings } from './page.js'
import { isRecord, type Json, rawConfig } from './sources.js'

export function pageSettings(config: DocsConfig, diagnostics: Diagnostic[]): ApiPageSettings {
  const api = isRecord(rawConfig(config).api) ? (rawConfig(config).api as Json) : {}
  const settings: ApiPageSettings = {}
  const examples = isRecord(api.examples) ? api.examples : {}
  if (Array.isArray(examples.languages))
    settings.languages = examples.languages.filter(
      (language): language is string => typeof language === 'string',
    )
  if (examples.defaults === 'all' || examples.defaults === 'required') settings.defaults = examples.defaults
  if (typeof examples.autogenerate === 'boolean') settings.autogenerate = examples.autogenerate
  const params = isRecord(api.params) ? api.params : {}
  if (params.expanded === 'all' || params.expanded === 'closed') settings.expanded = params.expanded
  const playground = isRecord(api.playground) ? api.playground : {}
  const display = playground.display
  if (display === 'auth' || display === 'interactive' || display === 'none' || display === 'simple')
    settings.playground = display
  if (playground.proxy === true)
    diagnostics.push({
      severity: 'warning',
      file: 'docs.json',
      path: 'api.playground.proxy',
      rule: 'openapi-proxy',
      message:
        'Unsupported api.playground.proxy: true; the "Try it" panel always sends requests from the reader\'s browser straight to the API (it needs CORS), never through this server',
    })
  return settings
}

/** Origins of an operation's servers, when its page has a "Try it" panel: what the site's CSP lets pages connect to. */
const READER_ENTERED_ORIGINS = PLAYGROUND_ANY_SERVER

export function addPlaygroundOrigins(
  origins: Set<string>,
  operation: ApiOperation,
  settings: ApiPageSettings,
): void {
  if ((settings.playground ?? 'interactive') !== 'interactive' || operation.webhook) return
  // The reader enters the base URL of a spec without servers: any https origin, or a local server.
  if (operation.servers.length === 0) for (const source of READER_ENTERED_ORIGINS) origins.add(source)
  for (const server of operation.servers) {
    try {
      const url = new URL(server.url)
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin)
    } catch {
      // A relative server URL is on the site's own origin, which 'self' covers.
    }
  }
}
