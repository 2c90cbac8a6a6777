/**
 * docs.json `mcp`: a site's MCP server is on unless `mcp.enabled` is false. The shell reads it (the
 * contextual menu offers MCP only while it is on) and so do the site-wide outputs (`_mcp/pages.json`).
 */
export const mcpEnabled = (config: { mcp?: { enabled?: boolean } }): boolean => config.mcp?.enabled !== false
