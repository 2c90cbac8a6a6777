/**
 * A report as one CSV file (RFC 4180): `table,key,day,total,detail`, one row per entry of every table,
 * so a spreadsheet can filter by table. Cells that a spreadsheet would run as a formula are quoted with
 * a leading apostrophe (readers' queries and comments are untrusted text).
 */
import type { InsightsReportBody } from './report.js'

const cell = (value: string | number): string => {
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function reportCsv(report: InsightsReportBody): string {
  const rows: (string | number)[][] = [['table', 'key', 'day', 'total', 'detail']]
  for (const day of report.days) {
    rows.push(['views', '', day.day, day.views, ''])
    rows.push(['visitors', '', day.day, day.visitors, ''])
  }
  for (const row of report.pages) rows.push(['pages', row.key, '', row.total, ''])
  for (const row of report.referrers) rows.push(['referrers', row.key, '', row.total, ''])
  for (const row of report.screens) rows.push(['screens', row.key, '', row.total, ''])
  for (const row of report.searches) rows.push(['searches', row.key, '', row.total, ''])
  for (const row of report.searchesWithoutResults)
    rows.push([
      'searches-without-results',
      row.key,
      '',
      row.total,
      row.closest.map((page) => page.path).join(' '),
    ])
  for (const row of report.feedback) {
    rows.push(['helpful', row.path, '', row.helpful, ''])
    rows.push(['not-helpful', row.path, '', row.notHelpful, ''])
  }
  for (const row of report.comments)
    rows.push(['comments', row.path, row.day, row.helpful ? 'helpful' : 'not helpful', row.comment])
  for (const row of report.copies) rows.push(['copies', row.key, '', row.total, ''])
  for (const row of report.notFound)
    rows.push(['not-found', row.key, '', row.total, row.redirect ? row.redirect.destination : ''])
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`
}
