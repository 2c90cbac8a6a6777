/* Generated from schemas/frontmatter.schema.json by `npm run schemas:types`; edit the schema, not this file. */

/**
 * The YAML block between `---` lines at the top of an MDX page.
 */
export interface PageFrontMatter {
/**
 * Page title: the <h1>, the browser tab title and the default sidebar label. Required.
 */
title: string
/**
 * One-sentence summary, used as the meta description and as the search result summary.
 */
description?: string
/**
 * Label shown in the sidebar instead of the title.
 */
sidebarTitle?: string
/**
 * Icon by name (Font Awesome), shown next to the sidebar label.
 */
icon?: string
/**
 * Icon style; styles that the free icon set lacks fall back to solid.
 */
iconType?: ("regular" | "solid" | "light" | "thin" | "sharp-solid" | "duotone" | "brands")
/**
 * Layout: default (sidebar and table of contents), wide (no table of contents), custom (no sidebar nor table of contents), frame (no table of contents, content framed), center (centred content without sidebar).
 */
mode?: ("default" | "wide" | "custom" | "frame" | "center")
/**
 * Leave the page out of the navigation; it stays reachable by URL.
 */
hidden?: boolean
/**
 * Show a deprecation badge next to the title.
 */
deprecated?: boolean
/**
 * Exclude the page from search engines (robots meta and robots.txt).
 */
noindex?: boolean
/**
 * Extra keywords for the site search.
 */
keywords?: string[]
/**
 * Short badge shown next to the title and the sidebar label (e.g. NEW, BETA).
 */
tag?: string
/**
 * External URL: the navigation entry for this page links there instead.
 */
url?: string
/**
 * Hide the HTTP method badge on API pages.
 */
hideApiMarker?: boolean
/**
 * Hide the previous/next links at the bottom of the page.
 */
hideFooterPagination?: boolean
/**
 * The OpenAPI operation this page documents: "GET /users" or "openapi.json GET /users".
 */
openapi?: string
/**
 * The API endpoint this page documents, e.g. "POST https://api.example.com/users".
 */
api?: string
/**
 * The AsyncAPI channel this page documents, e.g. "asyncapi.yaml channelName".
 */
asyncapi?: string
/**
 * The OpenAPI schema (component) this page documents, e.g. "User".
 */
"openapi-schema"?: string
/**
 * Canonical URL of the page, when it differs from its own.
 */
canonical?: string
/**
 * Robots meta tag content, e.g. "noindex, nofollow".
 */
robots?: string
/**
 * Social metadata (og:title, twitter:card, ...) written into the page's <meta> tags.
 * 
 * This interface was referenced by `PageFrontMatter`'s JSON-Schema definition
 * via the `patternProperty` "^(og|twitter|article|fb):".
 */
[k: string]: string | "regular" | "solid" | "light" | "thin" | "sharp-solid" | "duotone" | "brands" | "default" | "wide" | "custom" | "frame" | "center" | boolean | string[] | undefined
}
