/* Generated from schemas/docs.schema.json by `npm run schemas:types`; edit the schema, not this file. */

/**
 * Sidebar and tab structure. At least one of groups, pages, tabs, languages, versions is required.
 */
export type Navigation = (Navigation1 & {
/**
 * Top-level sections, each with its own sidebar.
 */
tabs?: {
[k: string]: unknown
}[]
/**
 * Sidebar groups, when tabs are not used.
 */
groups?: Group[]
/**
 * A flat list of page slugs.
 */
pages?: PageSlug[]
/**
 * Page slugs reachable by URL but not shown in the sidebar.
 */
hidden?: PageSlug[]
/**
 * Entries of the version dropdown.
 */
versions?: {
/**
 * Version name shown in the dropdown, e.g. "v2".
 */
label: string
/**
 * Where this version's docs live.
 */
url: string
}[]
/**
 * Entries of the language switcher.
 */
languages?: {
/**
 * Language name shown in the switcher, e.g. "Deutsch".
 */
label: string
/**
 * Where the docs in this language live.
 */
url: string
/**
 * BCP 47 language code, e.g. "de" or "pt-BR".
 */
locale?: string
}[]
/**
 * Links shown across all tabs.
 */
global?: {
/**
 * Prominent links at the top of the sidebar.
 */
anchors?: Link[]
/**
 * Further links shown across all tabs.
 */
links?: Link[]
}
})
export type Navigation1 = {
[k: string]: unknown
}
/**
 * A page: its path relative to the docs root without the .mdx extension, e.g. "guide/setup".
 */
export type PageSlug = string

/**
 * Configuration of a docs site: its name, branding and navigation. One docs.json sits at the root of the docs directory.
 */
export interface DocsJson {
/**
 * URL of this JSON Schema, so editors offer completion and help.
 */
$schema?: string
/**
 * Display name of the site, project or organization.
 */
name: string
/**
 * URL-safe project slug used for deployments and the default {slug}.{base_domain} host: 3-63 characters of a-z, 0-9 and '-', not starting or ending with '-'.
 */
slug?: string
/**
 * Description of the site, used in metadata and for search engines.
 */
description?: string
/**
 * Header logo: one image path or URL, or an object with an image per colour mode.
 */
logo?: (string | {
/**
 * Image path or URL shown in light mode.
 */
light: string
/**
 * Image path or URL shown in dark mode.
 */
dark: string
/**
 * Accessible text of the logo.
 */
alt?: string
/**
 * Where clicking the logo goes; defaults to the docs home page.
 */
href?: string
})
/**
 * Browser tab icon: one image path, or an object with an image per colour mode.
 */
favicon?: (string | {
/**
 * Icon path used in light mode.
 */
light: string
/**
 * Icon path used in dark mode.
 */
dark: string
})
/**
 * Colour mode settings.
 */
appearance?: {
/**
 * Initial colour mode; 'system' follows the reader's operating system.
 */
default?: ("system" | "light" | "dark")
/**
 * When true, hides the colour mode toggle and locks the default mode.
 */
strict?: boolean
}
/**
 * Header links.
 */
navbar?: {
/**
 * Links shown in the header, in order.
 */
links?: Link[]
/**
 * The header's call-to-action button.
 */
primary?: {
/**
 * Button text.
 */
label?: string
/**
 * Where the button goes.
 */
href: string
}
}
navigation: Navigation
api?: Api
/**
 * Per-page action buttons (copy the page, open it in an assistant, ...).
 */
contextual?: {
/**
 * Where the action buttons render: in the page header or in the table of contents.
 */
display?: ("header" | "toc")
/**
 * Actions, in order: preset names or custom action objects.
 */
options?: (("copy" | "view" | "chatgpt" | "claude" | "perplexity" | "grok" | "aistudio" | "cursor" | "vscode" | "windsurf" | "devin" | "mcp" | "add-mcp" | "devin-mcp" | "assistant") | {
[k: string]: unknown
})[]
}
/**
 * Search settings.
 */
search?: {
/**
 * Placeholder text of the search box.
 */
prompt?: string
[k: string]: unknown
}
/**
 * Search engine settings.
 */
seo?: {
/**
 * 'all' lets search engines index every page, hidden ones included; 'navigable' only pages in navigation.
 */
indexing?: ("all" | "navigable")
/**
 * Extra <meta> tags added to every page, name to content.
 */
metatags?: {
[k: string]: string
}
[k: string]: unknown
}
/**
 * Site-wide page metadata settings.
 */
metadata?: {
[k: string]: unknown
}
}
/**
 * A link with a label.
 */
export interface Link {
/**
 * Text of the link.
 */
label: string
/**
 * URL or path the link goes to.
 */
href: string
/**
 * Icon name shown before the label.
 */
icon?: string
}
/**
 * A labelled sidebar group of pages.
 */
export interface Group {
/**
 * Label of the group.
 */
group: string
/**
 * Icon name shown before the label.
 */
icon?: string
/**
 * Page slugs of this group, in order.
 */
pages?: PageSlug[]
/**
 * Whether the group starts open; defaults to true for the first group and false for the others.
 */
expanded?: boolean
/**
 * Hides the group from the sidebar; its pages stay reachable by URL.
 */
hidden?: boolean
/**
 * Instead of pages: generate this group's pages from an OpenAPI document.
 */
openapi?: (string | OpenapiSource)
}
/**
 * An OpenAPI document and how its pages are generated.
 */
export interface OpenapiSource {
/**
 * Path or URL of the OpenAPI document.
 */
source: string
/**
 * Slug prefix of the generated pages.
 */
basePath?: string
/**
 * Output directory of the generated pages.
 */
directory?: string
/**
 * Operations to include, each a method followed by a path, e.g. "GET /users".
 */
include?: string[]
}
/**
 * API reference and playground settings.
 */
export interface Api {
/**
 * OpenAPI document(s) of the API reference.
 */
openapi?: (string | string[] | {
/**
 * Path or URL of the document.
 */
source: string
/**
 * Slug prefix of the generated pages.
 */
basePath?: string
/**
 * Output directory of the generated pages.
 */
directory?: string
/**
 * Operations to include.
 */
include?: string[]
})
/**
 * AsyncAPI document(s), same format as openapi.
 */
asyncapi?: (string | string[] | {
/**
 * Path or URL of the document.
 */
source: string
/**
 * Slug prefix of the generated pages.
 */
basePath?: string
/**
 * Output directory of the generated pages.
 */
directory?: string
/**
 * Operations to include.
 */
include?: string[]
})
/**
 * The interactive request playground.
 */
playground?: {
/**
 * How the playground shows.
 */
display?: ("auth" | "interactive" | "none" | "simple")
/**
 * Send playground requests through the server's proxy.
 */
proxy?: boolean
/**
 * Send cookies and credentials with playground requests.
 */
credentials?: boolean
}
/**
 * Generated request examples.
 */
examples?: {
/**
 * Generate examples from the schema.
 */
autogenerate?: boolean
/**
 * Which parameters examples include.
 */
defaults?: ("all" | "required")
/**
 * Languages of the examples, e.g. ["bash", "python"].
 */
languages?: string[]
/**
 * Prefill the playground with example values.
 */
prefill?: boolean
}
/**
 * How parameter lists show.
 */
params?: {
/**
 * Whether nested parameters start open.
 */
expanded?: ("all" | "closed")
}
/**
 * Settings for API pages written in MDX.
 */
mdx?: {
/**
 * Authentication of the API.
 */
auth?: {
/**
 * Authentication method, e.g. "bearer".
 */
method?: string
/**
 * Name of the header, query parameter or cookie.
 */
name?: string
}
/**
 * Base URL(s) of the API.
 */
server?: (string | string[])
}
/**
 * Show full URLs of endpoints.
 */
url?: "full"
}
