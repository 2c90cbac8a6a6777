/** How `docsctl insights` prints a report: the dashboard's tables, aligned for a terminal. */
import type { InsightsReport } from '../api.js'
import { table } from '../domains/format.js'

const bars = '▁▂▃▄▅▆▇█'

/** One character a day, the tallest bar the busiest day. */
export function sparkline(values: readonly number[]): string {
  const most = Math.max(0, ...values)
  return values
    .map((value) => (most === 0 ? bars[0] : bars[Math.round((value / most) * (bars.length - 1))]))
    .join('')
}

const pagePath = (path: string): string => `/${path}`

function section(title: string, header: string[], rows: string[][], empty: string): string {
  return `${title}\n${rows.length ? table([header, ...rows]) : `  ${empty}`}\n`
}

export function formatReport(report: InsightsReport, slug: string): string {
  const views = report.days.reduce((sum, day) => sum + day.views, 0)
  const visitors = report.days.reduce((sum, day) => sum + day.visitors, 0)
  const out: string[] = [
    `Insights of ${slug}, ${report.from} to ${report.to}${report.enabled ? '' : ' (turned off: no new events are kept)'}`,
    `${views} page views, ${visitors} daily visitors  ${sparkline(report.days.map((day) => day.views))}\n`,
    section(
      'Top pages',
      ['PAGE', 'VIEWS'],
      report.pages.map((row) => [pagePath(row.key), String(row.total)]),
      'no page views yet',
    ),
    section(
      'Top referrers',
      ['HOST', 'VIEWS'],
      report.referrers.map((row) => [row.key, String(row.total)]),
      'no referrers yet',
    ),
    section(
      'Top searches',
      ['QUERY', 'SEARCHES'],
      report.searches.map((row) => [row.key, String(row.total)]),
      'no searches yet',
    ),
    section(
      'Searches without results',
      ['QUERY', 'SEARCHES', 'CLOSEST PAGES'],
      report.searchesWithoutResults.map((row) => [
        row.key,
        String(row.total),
        row.closest.map((page) => `${page.title} (${pagePath(page.path)})`).join(', ') || '-',
      ]),
      'none',
    ),
    section(
      'Feedback',
      ['PAGE', 'HELPFUL', 'NOT HELPFUL'],
      report.feedback.map((row) => [pagePath(row.path), String(row.helpful), String(row.notHelpful)]),
      'no feedback yet',
    ),
    section(
      'Comments',
      ['DAY', 'PAGE', 'ANSWER', 'COMMENT'],
      report.comments.map((row) => [
        row.day,
        pagePath(row.path),
        row.helpful ? 'helpful' : 'not helpful',
        row.comment.replace(/\s+/g, ' '),
      ]),
      'no comments yet',
    ),
    section(
      'Code copies',
      ['PAGE', 'COPIES'],
      report.copies.map((row) => [pagePath(row.key), String(row.total)]),
      'no copies yet',
    ),
    section(
      'Pages not found',
      ['PATH', 'SEEN', 'REDIRECT TO ADD'],
      report.notFound.map((row) => [
        pagePath(row.key),
        String(row.total),
        row.redirect
          ? `{"source": "${row.redirect.source}", "destination": "${row.redirect.destination}"}`
          : '-',
      ]),
      'none',
    ),
  ]
  return out.join('\n')
}
