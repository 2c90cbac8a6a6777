/**
 * `llms.txt` (the site's name, description and its pages in navigation order, each with a link to
 * its Markdown export) and `llms-full.txt` (every page's Markdown, in the same order). Links are
 * relative to the site root, like everything else the compiler writes.
 */
import type { DocsConfig } from '../config/types.js'
import { markdownOutputPath } from '../theme/urls.js'

export interface LlmsPage {
  slug: string
  title: string
  description?: string
  markdown: string
  section?: string
}

export function renderLlmsTxt(config: DocsConfig, pages: readonly LlmsPage[]): string {
  const lines = [`# ${config.name}`, '']
  if (config.description) lines.push(`> ${config.description}`, '')
  let section: string | undefined
  for (const page of pages) {
    if (page.section !== section) {
      section = page.section
      lines.push('', `## ${section ?? 'Pages'}`, '')
    }
    const description = page.description ? `: ${page.description}` : ''
    lines.push(`- [${page.title}](${markdownOutputPath(page.slug)})${description}`)
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`
}

export function renderLlmsFullTxt(config: DocsConfig, pages: readonly LlmsPage[]): string {
  const header = [`# ${config.name}`, config.description ? `\n\n> ${config.description}` : ''].join('')
  const bodies = pages.map(
    (page) => `---\nsource: ${markdownOutputPath(page.slug)}\n---\n\n${page.markdown.trim()}\n`,
  )
  return `${header}\n\n${bodies.join('\n')}`
}
