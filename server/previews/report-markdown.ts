/**
 * A change report in Markdown: the summary `docsctl push --preview` prints and the forges show (a
 * GitHub check run and pull request comment, a GitLab note, a Gitea/Forgejo comment). Long lists are
 * cut and the diffs folded, so it stays under the forges' 65,536-character limit.
 */
import type { ChangeReport } from './reports.js'

const MAX_ITEMS = 25
const MAX_DIFF_CHARS = 3000
const MAX_CHARS = 60_000

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``
const pageLink = (previewUrl: string | null, slug: string) =>
  previewUrl ? `[${code(slug)}](${previewUrl}${slug === 'index' ? '' : `${slug}/`})` : code(slug)

function list<T>(items: readonly T[], line: (item: T) => string): string[] {
  const lines = items.slice(0, MAX_ITEMS).map((item) => `- ${line(item)}`)
  if (items.length > MAX_ITEMS) lines.push(`- … and ${items.length - MAX_ITEMS} more (see the full report)`)
  return lines
}

/** One line: what the report found, for a commit status or a terminal. */
export function reportHeadline(report: Omit<ChangeReport, 'summary'>): string {
  if (report.status === 'failed') return 'The change report could not be made'
  const { pages, links, missingRedirects, warnings } = report
  const parts = [
    `${pages.changed.length} changed`,
    `${pages.added.length} added`,
    `${pages.removed.length} removed`,
  ]
  if (links.introduced.length)
    parts.push(`${links.introduced.length} broken link${links.introduced.length === 1 ? '' : 's'}`)
  if (missingRedirects.length)
    parts.push(`${missingRedirects.length} missing redirect${missingRedirects.length === 1 ? '' : 's'}`)
  if (warnings.introduced.length)
    parts.push(`${warnings.introduced.length} new warning${warnings.introduced.length === 1 ? '' : 's'}`)
  return `Pages: ${parts.join(', ')}`
}

export function reportMarkdown(report: Omit<ChangeReport, 'summary'>): string {
  const out: string[] = ['### Changes against live', '']
  if (report.status === 'failed') {
    out.push(`The change report could not be made: ${report.error ?? 'unknown error'}.`)
    return out.join('\n')
  }
  out.push(`${reportHeadline(report)}.`)
  if (report.previewUrl) out.push('', `Preview: ${report.previewUrl}`)
  if (report.baseDeploymentId === null) out.push('', 'The project had no live deployment: every page is new.')
  const { pages, links, warnings, missingRedirects, navigation } = report
  if (links.introduced.length) {
    out.push('', '#### Broken links introduced')
    out.push(
      ...list(
        links.introduced,
        (link) =>
          `${code(link.page)} links to ${code(link.href)}: ${link.problem === 'missing-anchor' ? 'no such anchor' : 'no such page'}`,
      ),
    )
  }
  if (links.fixed.length) {
    out.push('', '#### Broken links fixed')
    out.push(...list(links.fixed, (link) => `${code(link.page)} → ${code(link.href)}`))
  }
  if (missingRedirects.length) {
    out.push('', '#### Removed pages without a redirect')
    out.push(
      ...list(
        missingRedirects,
        (page) =>
          `${code(page.slug)}${page.renamedTo ? ` (renamed to ${code(page.renamedTo)})` : ''}: add to \`redirects\` in docs.json: ${code(JSON.stringify(page.redirect))}`,
      ),
    )
  }
  if (warnings.introduced.length) {
    out.push('', '#### New warnings')
    out.push(...list(warnings.introduced, (warning) => `${code(warning.file)} ${warning.message}`))
  }
  if (pages.added.length) {
    out.push('', '#### Pages added')
    out.push(...list(pages.added, (page) => `${pageLink(report.previewUrl, page.slug)} ${page.title}`))
  }
  if (pages.removed.length) {
    out.push('', '#### Pages removed')
    out.push(...list(pages.removed, (page) => `${code(page.slug)} ${page.title}`))
  }
  if (navigation.length) {
    out.push('', '#### Navigation')
    out.push(
      ...list(navigation, (change) =>
        change.change === 'added'
          ? `listed: ${change.after ?? ''}`
          : change.change === 'removed'
            ? `unlisted: ${change.before ?? ''}`
            : `${change.change}: ${change.before ?? ''} → ${change.after ?? ''}`,
      ),
    )
  }
  if (pages.changed.length) {
    out.push('', '#### Pages changed')
    for (const page of pages.changed.slice(0, MAX_ITEMS)) {
      const diff =
        page.diff.length > MAX_DIFF_CHARS ? `${page.diff.slice(0, MAX_DIFF_CHARS)}\n… (cut)` : page.diff
      out.push(
        `<details><summary>${pageLink(report.previewUrl, page.slug)} ${page.title}</summary>`,
        '',
        '```diff',
        diff.replace(/```/g, "'''"),
        '```',
        '</details>',
      )
    }
    if (pages.changed.length > MAX_ITEMS) out.push(`… and ${pages.changed.length - MAX_ITEMS} more`)
  }
  const { screenshots } = report
  out.push('', '#### Screenshots')
  if (!screenshots.taken) out.push(screenshots.reason ?? 'None')
  else
    out.push(
      ...screenshots.pages.map(
        (shot) =>
          `- ${code(shot.slug)} (${shot.viewport}, ${shot.width}px): ${shot.live ? `[live](${shot.live.url}) · ` : ''}[preview](${shot.preview?.url ?? ''})${shot.difference ? ` · [difference](${shot.difference.url}), ${shot.differentPixels} pixels differ` : ' (new page)'}`,
      ),
    )
  out.push('', `Full report: ${report.url}`)
  const text = out.join('\n')
  return text.length > MAX_CHARS
    ? `${text.slice(0, MAX_CHARS)}\n\n… (cut; see the full report: ${report.url})`
    : text
}
