/**
 * `_mcp/pages.json`: the listed pages in navigation order, each with the sections and groups above
 * it, for the site's MCP server (`list_pages`). Written only while `mcp.enabled` is not false: a
 * deployment without it has no `/mcp` endpoint. Like every output it is relative to the site root.
 */
export const MCP_PAGES_PATH = '_mcp/pages.json'

export interface McpPage {
  slug: string
  title: string
  description?: string
  /** Section labels (tab, dropdown, …) then group labels, outermost first. */
  path: string[]
}

export interface McpPages {
  name: string
  description?: string
  pages: McpPage[]
}

export function renderMcpPages(site: McpPages): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(site)}\n`)
}
