/**
 * Page actions: copy the Markdown export; assistant links get the page's absolute URL; MCP actions
 * get the site's MCP server URL (`mcp` under the site root, so it holds the host and any prefix).
 */
import { copyText } from './copy.js'
import { siteRoot } from './page.js'

/** The install deep links the tools document: Cursor takes base64 JSON, VS Code URL-encoded JSON. */
function mcpLink(action: string, name: string, url: string): string | undefined {
  if (action === 'cursor')
    return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${btoa(JSON.stringify({ url }))}`
  if (action === 'vscode')
    return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, type: 'http', url }))}`
  return undefined
}

export function setUpPageActions(): void {
  const contextual = document.querySelector('.d-contextual')
  if (!contextual) return
  const markdownUrl = new URL(contextual.getAttribute('data-markdown') ?? '', location.href).href
  const prompt = encodeURIComponent(`Read ${markdownUrl} so I can ask questions about it.`)
  for (const link of contextual.querySelectorAll<HTMLAnchorElement>('[data-assistant]')) {
    link.href = (link.getAttribute('data-assistant') ?? '').replace('{prompt}', prompt)
  }
  for (const link of contextual.querySelectorAll<HTMLAnchorElement>('[data-page-template]')) {
    link.href = (link.getAttribute('data-page-template') ?? '')
      .replaceAll('$page', encodeURIComponent(location.href))
      .replaceAll('$path', encodeURIComponent(location.pathname))
  }
  const mcpUrl = new URL('mcp', siteRoot()).href
  // Names the server in the tool's list: the site's name, as a tool would show it.
  const name = (contextual.getAttribute('data-site-name') ?? '').trim() || location.hostname
  for (const element of contextual.querySelectorAll<HTMLElement>('[data-mcp-action]')) {
    const action = element.getAttribute('data-mcp-action') ?? ''
    element.setAttribute('data-mcp-url', mcpUrl)
    const deepLink = mcpLink(action, name, mcpUrl)
    if (deepLink && element instanceof HTMLAnchorElement) {
      element.href = deepLink
      element.removeAttribute('target')
      continue
    }
    const text = action === 'copy-add-mcp' ? `npx add-mcp ${mcpUrl}` : mcpUrl
    // A link (Devin's settings) still opens; the URL is on the clipboard to paste there.
    element.addEventListener('click', () =>
      copyText(text, element, element instanceof HTMLButtonElement ? 'Copied' : ''),
    )
  }
  const copy = contextual.querySelector<HTMLElement>('[data-copy-markdown]')
  copy?.addEventListener('click', async () => {
    const response = await fetch(markdownUrl)
    copyText(response.ok ? await response.text() : location.href, copy, 'Copied')
  })
}
