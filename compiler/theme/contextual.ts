/**
 * Per-page actions (`contextual` in docs.json): copy the page as Markdown, view the Markdown export,
 * open the page in an AI assistant, connect an AI tool to the site's MCP server (`<site>/mcp`). The
 * assistant links carry a prompt template and the MCP actions name what they need; the small client
 * script fills in the absolute URLs, which only the browser knows (the build is base-path free).
 * Without JavaScript the links still lead to each assistant (or the tool's MCP documentation), and
 * "View as Markdown" is a plain link.
 */

import escapeHtml from 'escape-html'
import { mcpEnabled } from '../config/mcp.js'
import type { DocsConfig } from '../config/types.js'
import { urlProblem } from '../url-policy.js'
import { externalAttributes } from './sidebar.js'
import { markdownOutputPath, siteHref } from './urls.js'

interface Assistant {
  label: string
  /** The assistant's address; `{prompt}` is replaced by the URL-encoded prompt. */
  template: string
}

/** Presets that open an assistant with a prompt. */
const assistants: Record<string, Assistant> = {
  chatgpt: { label: 'Open in ChatGPT', template: 'https://chatgpt.com/?hints=search&q={prompt}' },
  claude: { label: 'Open in Claude', template: 'https://claude.ai/new?q={prompt}' },
  perplexity: { label: 'Open in Perplexity', template: 'https://www.perplexity.ai/search/new?q={prompt}' },
  grok: { label: 'Open in Grok', template: 'https://grok.com/?q={prompt}' },
  aistudio: {
    label: 'Open in AI Studio',
    template: 'https://aistudio.google.com/prompts/new_chat?prompt={prompt}',
  },
  devin: { label: 'Open in Devin', template: 'https://app.devin.ai/?prompt={prompt}' },
  windsurf: { label: 'Open in Windsurf', template: 'https://windsurf.com/?prompt={prompt}' },
}

interface McpAction {
  label: string
  /** `copy-url`, `copy-add-mcp`: copy to the clipboard; `cursor`, `vscode`: the tool's install deep link. */
  action: 'copy-url' | 'copy-add-mcp' | 'cursor' | 'vscode'
  /** Where the link goes without the script (or, for Devin, besides copying the URL). */
  href?: string
}

/** Presets that connect an AI tool to the site's MCP server; left out when `mcp.enabled` is false. */
const mcpActions: Record<string, McpAction> = {
  mcp: { label: 'Copy MCP server URL', action: 'copy-url' },
  'add-mcp': { label: 'Copy add-mcp command', action: 'copy-add-mcp' },
  cursor: { label: 'Connect to Cursor', action: 'cursor', href: 'https://cursor.com/docs/context/mcp' },
  vscode: {
    label: 'Connect to VS Code',
    action: 'vscode',
    href: 'https://code.visualstudio.com/docs/copilot/customization/mcp-servers',
  },
  // Devin has no install link: copy the URL and open its MCP settings, where "Add your own" takes it.
  'devin-mcp': {
    label: 'Connect to Devin',
    action: 'copy-url',
    href: 'https://app.devin.ai/settings/mcp-marketplace',
  },
}

export const defaultContextualOptions = ['copy', 'view', 'chatgpt', 'claude', 'perplexity']

export function renderContextual(config: DocsConfig, slug: string): string {
  const options = config.contextual?.options ?? defaultContextualOptions
  const markdownHref = escapeHtml(siteHref(slug, markdownOutputPath(slug)))
  const items: string[] = []
  let copy = ''
  for (const option of options) {
    if (option === 'copy') {
      copy = `<button type="button" class="d-contextual-copy" data-copy-markdown="${markdownHref}"><svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14"><rect x="8" y="8" width="12" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" fill="none" stroke="currentColor" stroke-width="2"/></svg><span>Copy page</span></button>`
    } else if (option === 'view') {
      items.push(`<li><a href="${markdownHref}">View as Markdown</a></li>`)
    } else if (typeof option === 'string' && mcpActions[option]) {
      if (!mcpEnabled(config)) continue
      const { label, action, href } = mcpActions[option]
      const data = `data-mcp-action="${action}"`
      items.push(
        href
          ? `<li><a href="${escapeHtml(href)}" ${data} target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a></li>`
          : `<li><button type="button" ${data}>${escapeHtml(label)}</button></li>`,
      )
    } else if (typeof option === 'string') {
      const assistant = assistants[option]
      if (!assistant) continue
      const home = new URL(assistant.template.replace('{prompt}', '')).origin
      items.push(
        `<li><a href="${escapeHtml(home)}/" data-assistant="${escapeHtml(assistant.template)}" target="_blank" rel="noopener noreferrer">${escapeHtml(assistant.label)}</a></li>`,
      )
    } else {
      const title = typeof option.title === 'string' ? option.title : undefined
      const href = typeof option.href === 'string' ? option.href : undefined
      // docs.json is checked when loaded; the shell stays safe on its own too.
      if (!title || !href || urlProblem(href, 'link')) continue
      items.push(
        `<li><a href="${escapeHtml(href)}" data-page-template="${escapeHtml(href)}"${externalAttributes(href)}>${escapeHtml(title)}</a></li>`,
      )
    }
  }
  if (!copy && items.length === 0) return ''
  const menu = items.length
    ? `<details class="d-contextual-menu"><summary aria-label="More page actions"><svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14"><path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></summary><ul>${items.join('')}</ul></details>`
    : ''
  return `<div class="d-contextual" data-markdown="${markdownHref}" data-site-name="${escapeHtml(config.name)}">${copy}${menu}</div>`
}
