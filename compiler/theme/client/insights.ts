/**
 * Reader insights: small events sent with `navigator.sendBeacon` to the site's own `_docs/events`
 * (same origin, no cookie, nothing to a third party). Nothing is sent when the reader has Do-Not-Track
 * or Global Privacy Control on, or the page was opened from a file. The server keeps no address or
 * user agent (see server/insights).
 */
import { siteRoot } from './page.js'

export type InsightEvent =
  | { type: 'view'; path: string; screen: 'phone' | 'tablet' | 'desktop'; referrer?: string }
  | { type: 'search'; query: string; results: number; opened: string | null }
  | { type: 'feedback'; path: string; helpful: boolean; comment?: string }
  | { type: 'copy' | 'not-found'; path: string }

declare global {
  interface Navigator {
    globalPrivacyControl?: boolean
  }
}

/** False when the reader asked not to be tracked, or there is no server to send to. */
export function insightsAllowed(): boolean {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return false
  if (navigator.doNotTrack === '1' || navigator.globalPrivacyControl === true) return false
  return typeof navigator.sendBeacon === 'function'
}

/** A URL's path relative to the site root (`guide/setup/`), or undefined when it is outside the site. */
export function sitePathOf(url: URL): string | undefined {
  const root = siteRoot()
  if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return undefined
  try {
    return decodeURI(url.pathname.slice(root.pathname.length))
  } catch {
    return undefined
  }
}

export function sendInsight(event: InsightEvent): void {
  if (!insightsAllowed()) return
  navigator.sendBeacon(new URL('_docs/events', siteRoot()).href, JSON.stringify(event))
}

/** This page's path, for events about it. */
export const currentPath = (): string | undefined => sitePathOf(new URL(location.href))

const screenClass = (): 'phone' | 'tablet' | 'desktop' =>
  window.innerWidth < 640 ? 'phone' : window.innerWidth < 1024 ? 'tablet' : 'desktop'

/** The page view (or the missing path, on the 404 page), once per page load. */
export function setUpInsights(): void {
  const path = currentPath()
  if (path === undefined) return
  if (document.querySelector('[data-not-found]')) {
    sendInsight({ type: 'not-found', path })
    return
  }
  let referrer: string | undefined
  try {
    const from = document.referrer ? new URL(document.referrer) : undefined
    if (from && from.host !== location.host) referrer = from.host.toLowerCase()
  } catch {
    referrer = undefined
  }
  sendInsight({ type: 'view', path, screen: screenClass(), ...(referrer ? { referrer } : {}) })
}
