/** The `.md` export of a page: its Markdown with components reduced to text, headed by its title. */
export function renderMarkdownExport(page: {
  title: string
  description?: string
  markdown: string
}): string {
  const body = page.markdown.trim()
  if (/^#\s/.test(body)) return `${body}\n`
  const description = page.description ? `> ${page.description}\n\n` : ''
  return `# ${page.title}\n\n${description}${body}\n`
}
