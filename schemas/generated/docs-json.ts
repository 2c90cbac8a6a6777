/* Generated from schemas/docs.schema.json by `npm run schemas:types`; edit the schema, not this file. */

/**
 * An icon: its name, or { name, style, library }.
 */
export type Icon = (string | {
/**
 * Icon name.
 */
name: string
/**
 * Icon style, e.g. "solid" or "duotone".
 */
style?: string
/**
 * Icon library, e.g. "fontawesome" or "lucide".
 */
library?: string
})
/**
 * A colour: one value, or { light, dark }.
 */
export type Color = (string | {
/**
 * Colour in light mode.
 */
light?: string
/**
 * Colour in dark mode.
 */
dark?: string
})
/**
 * Sidebar and section structure; products, versions, languages, dropdowns, anchors, tabs and menu nest in one another. At least one of groups, pages, tabs, anchors, dropdowns, products, languages, versions is required.
 */
export type Navigation = (Navigation1 & {
/**
 * Tabs: sections with their own sidebar, shown as a tab bar.
 */
tabs?: Section[]
/**
 * Anchors: sections listed at the top of the sidebar.
 */
anchors?: Section[]
/**
 * Dropdowns: sections chosen from a menu above the sidebar.
 */
dropdowns?: Section[]
/**
 * Products: sections chosen from a product switcher.
 */
products?: Section[]
/**
 * Versions: a version switcher; each entry holds its own navigation or links to { url }.
 */
versions?: Section[]
/**
 * Languages: a language switcher; each entry holds its own navigation or links to { url }.
 */
languages?: Section[]
/**
 * Menu items of a tab, each with its own sidebar.
 */
menu?: Section[]
/**
 * Sidebar groups of this section.
 */
groups?: Group[]
/**
 * Page slugs (and nested groups) of this section's sidebar.
 */
pages?: PageEntry[]
/**
 * Page slugs reachable by URL but not shown in the sidebar.
 */
hidden?: PageSlug[]
global?: GlobalLinks
/**
 * Path of a JSON file (relative to this file) whose content replaces this object.
 */
$ref?: string
})
export type Navigation1 = {
[k: string]: unknown
}
/**
 * A page slug, or a group nested in a list of pages.
 */
export type PageEntry = (PageSlug | Group)
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
href?: string
/**
 * Kind of button: "button" or "github" (a repository link).
 */
type?: ("button" | "github")
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
 * The site's MCP server at <site>/mcp (search, read and list pages for AI tools). On unless turned off.
 */
mcp?: {
/**
 * false: no /mcp endpoint, and the mcp, add-mcp, cursor, vscode and devin-mcp page actions are left out.
 */
enabled?: boolean
}
/**
 * What each page asks its readers. Answers are kept by docs-server as reader insights (`docsctl insights`).
 */
feedback?: {
/**
 * Show "Was this page helpful?" (yes / no, with an optional comment) under each page. Default true; readers with Do-Not-Track or Global Privacy Control, previews and projects with insights off never see it.
 */
thumbsRating?: boolean
}
/**
 * Search settings.
 */
search?: {
/**
 * Placeholder text of the search box.
 */
prompt?: string
/**
 * Words a search treats alike, both ways: {"k8s": ["kubernetes"]} finds Kubernetes pages for "k8s" and the reverse. Keys are single words; a value may be a phrase, found when all its words are. Used by the site search and the MCP search.
 */
synonyms?: {
/**
 * @minItems 1
 * @maxItems 20
 */
[k: string]: [string]|[string, string]|[string, string, string]|[string, string, string, string]|[string, string, string, string, string]|[string, string, string, string, string, string]|[string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]|[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string]
}
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
}
/**
 * Site-wide page metadata settings.
 */
metadata?: {
[k: string]: unknown
}
/**
 * Moved pages: each source path answers with a redirect to its destination.
 */
redirects?: {
/**
 * Path that moved, e.g. "/old/:slug", "/beta/:slug*" or "/blog/*".
 */
source: string
/**
 * Where it moved: a path (may use the source's :params and *) or a URL.
 */
destination: string
/**
 * 308 when true (the default), 307 when false.
 */
permanent?: boolean
}[]
/**
 * A banner above the header.
 */
banner?: {
/**
 * Banner text, in Markdown (links and emphasis).
 */
content: string
/**
 * Shows a button that hides the banner for the reader.
 */
dismissible?: boolean
}
/**
 * The site footer.
 */
footer?: {
/**
 * Social links: platform name ("x", "github", "linkedin", ...) to URL.
 */
socials?: {
[k: string]: string
}
/**
 * Columns of links.
 */
links?: {
/**
 * Column heading.
 */
header?: string
/**
 * Links of the column.
 */
items: Link[]
}[]
}
/**
 * Third-party integrations (analytics and the like), by name; read for compatibility, configured on the server.
 */
integrations?: {
[k: string]: unknown
}
/**
 * Error pages, e.g. { "404": { "redirect": true } }.
 */
errors?: {
/**
 * The page-not-found page.
 */
"404"?: {
/**
 * Redirect a missing page to the home page.
 */
redirect?: boolean
/**
 * Title of the 404 page.
 */
title?: string
/**
 * Text of the 404 page.
 */
description?: string
}
}
/**
 * Navigation behaviour.
 */
interaction?: {
/**
 * Whether opening a group opens its first page.
 */
drilldown?: boolean
}
/**
 * Social preview images.
 */
thumbnails?: {
/**
 * "light" or "dark" previews.
 */
appearance?: ("light" | "dark")
/**
 * Background image of the previews.
 */
background?: string
/**
 * Font of the previews.
 */
fonts?: {
[k: string]: unknown
}
}
/**
 * Values substituted for {{name}} in pages.
 */
variables?: {
[k: string]: string
}
}
/**
 * A link with a label.
 */
export interface Link {
/**
 * Text of the link.
 */
label?: string
/**
 * URL or path the link goes to.
 */
href: string
icon?: Icon
/**
 * Text of the link (the format's name for label in global anchors).
 */
anchor?: string
color?: Color
}
/**
 * An entry of tabs, anchors, dropdowns, products, versions, languages or menu: a label and its own navigation, or a link.
 */
export interface Section {
/**
 * Label of a tab.
 */
tab?: string
/**
 * Label of an anchor.
 */
anchor?: string
/**
 * Label of a dropdown.
 */
dropdown?: string
/**
 * Label of a product.
 */
product?: string
/**
 * Label of a version.
 */
version?: string
/**
 * Language code of a language, e.g. "en" or "fr".
 */
language?: string
/**
 * Label of a menu item.
 */
item?: string
/**
 * Label of a version or language link.
 */
label?: string
/**
 * Where a version or language link goes.
 */
url?: string
/**
 * BCP 47 code of a language link.
 */
locale?: string
icon?: Icon
color?: Color
/**
 * Short text shown under the label in a switcher.
 */
description?: string
/**
 * External URL: the section navigates away instead of holding navigation.
 */
href?: string
/**
 * Hides the section from switchers and tab bars; its pages stay reachable by URL.
 */
hidden?: boolean
/**
 * The version or language shown first.
 */
default?: boolean
/**
 * Badge shown beside the label.
 */
tag?: string
/**
 * Instead of pages: generate this group's pages from an OpenAPI document.
 */
openapi?: (string | OpenapiSource)
/**
 * Instead of pages: generate this group's pages from an AsyncAPI document.
 */
asyncapi?: (string | OpenapiSource)
global?: GlobalLinks
/**
 * Tabs: sections with their own sidebar, shown as a tab bar.
 */
tabs?: Section[]
/**
 * Anchors: sections listed at the top of the sidebar.
 */
anchors?: Section[]
/**
 * Dropdowns: sections chosen from a menu above the sidebar.
 */
dropdowns?: Section[]
/**
 * Products: sections chosen from a product switcher.
 */
products?: Section[]
/**
 * Versions: a version switcher; each entry holds its own navigation or links to { url }.
 */
versions?: Section[]
/**
 * Languages: a language switcher; each entry holds its own navigation or links to { url }.
 */
languages?: Section[]
/**
 * Menu items of a tab, each with its own sidebar.
 */
menu?: Section[]
/**
 * Sidebar groups of this section.
 */
groups?: Group[]
/**
 * Page slugs (and nested groups) of this section's sidebar.
 */
pages?: PageEntry[]
/**
 * Path of a JSON file (relative to this file) whose content replaces this object.
 */
$ref?: string
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
 * Links shown across all sections.
 */
export interface GlobalLinks {
/**
 * Prominent links at the top of the sidebar.
 */
anchors?: Link[]
/**
 * Further links shown across all tabs.
 */
links?: Link[]
}
/**
 * A labelled sidebar group of pages.
 */
export interface Group {
/**
 * Label of the group.
 */
group: string
icon?: Icon
/**
 * Page slugs and nested groups of this group, in order.
 */
pages?: PageEntry[]
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
/**
 * Page opened by the group's label.
 */
root?: string
/**
 * Badge shown beside the group's label.
 */
tag?: string
/**
 * Instead of pages: generate this group's pages from an AsyncAPI document.
 */
asyncapi?: (string | OpenapiSource)
/**
 * Output directory of pages generated from an OpenAPI document.
 */
directory?: string
/**
 * Path of a JSON file (relative to this file) whose content replaces this object.
 */
$ref?: string
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
