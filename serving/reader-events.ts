/**
 * Where a site's script sends reader events (compiler/theme/client/insights.ts), under the site's
 * root: docs-server keeps them (server/insights); `docsctl dev` answers 204 and keeps nothing.
 */
export const READER_EVENTS_PATH = '_docs/events'
