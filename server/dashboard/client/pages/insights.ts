/**
 * A project's reader insights: views over time (an inline SVG chart), top pages, referrers and
 * searches, searches without results (with the closest pages and the synonym to add), feedback per
 * page with comments, 404s with the redirect to add; a date range, CSV export, and the on/off switch.
 */
import { api, apiFile } from '../api.js'
import { copyButton, dataTable, h, render } from '../dom.js'
import type { InsightsReport, Project } from '../types.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

const svgNs = 'http://www.w3.org/2000/svg'

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNs, tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value))
  element.append(...children)
  return element
}

/** Views (bars) and visitors (a line) per day, scaled to the busiest day; each bar says its numbers. */
function viewsChart(days: InsightsReport['days']): SVGSVGElement {
  const width = 720
  const height = 180
  const pad = 24
  const most = Math.max(1, ...days.map((day) => day.views))
  const step = (width - pad * 2) / Math.max(1, days.length)
  const y = (value: number) => height - pad - (value / most) * (height - pad * 2)
  const bars = days.map((day, index) =>
    svg(
      'rect',
      {
        class: 'chart-bar',
        x: (pad + index * step + step * 0.15).toFixed(1),
        y: y(day.views).toFixed(1),
        width: Math.max(1, step * 0.7).toFixed(1),
        height: (height - pad - y(day.views)).toFixed(1),
      },
      svg('title', {}, `${day.day}: ${day.views} views, ${day.visitors} visitors`),
    ),
  )
  const line = days
    .map((day, index) => `${(pad + index * step + step / 2).toFixed(1)},${y(day.visitors).toFixed(1)}`)
    .join(' ')
  const total = days.reduce((sum, day) => sum + day.views, 0)
  return svg(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `Page views per day from ${days[0]?.day ?? ''} to ${days.at(-1)?.day ?? ''}: ${total} in all`,
    },
    svg('line', { class: 'chart-axis', x1: pad, x2: width - pad, y1: height - pad, y2: height - pad }),
    ...bars,
    svg('polyline', { class: 'chart-line', points: line, fill: 'none' }),
    svg('text', { class: 'chart-label', x: pad, y: 14 }, `${most} views`),
    svg('text', { class: 'chart-label', x: pad, y: height - 6 }, days[0]?.day ?? ''),
    svg(
      'text',
      { class: 'chart-label', x: width - pad, y: height - 6, 'text-anchor': 'end' },
      days.at(-1)?.day ?? '',
    ),
  )
}

/** One table of the report, or a line saying it is empty. */
function table(title: string, columns: string[], rows: (Node | string)[][], empty: string): HTMLElement {
  const id = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return h(
    'section',
    { class: 'insights-table', 'aria-labelledby': id },
    h('h2', { id }, title),
    rows.length
      ? dataTable({
          label: title,
          columns,
          id: `${id}-table`,
          rows: h(
            'tbody',
            {},
            ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell)))),
          ),
        })
      : h('p', { class: 'muted' }, empty),
  )
}

const pagePath = (path: string) => `/${path}`
const pageLink = (project: Project, path: string) =>
  h(
    'a',
    { href: new URL(path, project.url.endsWith('/') ? project.url : `${project.url}/`).href },
    pagePath(path),
  )

const today = () => new Date().toISOString().slice(0, 10)
const daysBefore = (day: string, count: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - count * 86_400_000).toISOString().slice(0, 10)

export async function insightsPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  const params = new URLSearchParams(location.search)
  const to = params.get('to') ?? today()
  const from = params.get('from') ?? daysBefore(to, 29)
  const query = new URLSearchParams({ from, to, limit: '50' })
  const report = await api<InsightsReport>('GET', `/projects/${project.id}/insights?${query}`)

  const range = h(
    'form',
    { class: 'insights-range', 'aria-label': 'Date range', method: 'get' },
    h('label', { for: 'insights-from' }, 'From'),
    h('input', { id: 'insights-from', name: 'from', type: 'date', value: report.from, required: true }),
    h('label', { for: 'insights-to' }, 'To'),
    h('input', { id: 'insights-to', name: 'to', type: 'date', value: report.to, required: true }),
    h('button', { type: 'submit' }, 'Show'),
  )
  const exportButton = h('button', { type: 'button', id: 'insights-export' }, 'Export CSV')
  exportButton.addEventListener('click', async () => {
    const file = await apiFile(`/projects/${project.id}/insights.csv?${query}`)
    const link = h('a', {
      href: URL.createObjectURL(file),
      download: `${project.slug}-insights-${report.from}-${report.to}.csv`,
    })
    document.body.append(link)
    link.click()
    link.remove()
  })
  const toggle = h(
    'button',
    { type: 'button', id: 'insights-toggle' },
    report.enabled ? 'Turn insights off' : 'Turn insights on',
  )
  toggle.addEventListener('click', async () => {
    await api('PUT', `/projects/${project.id}/insights/settings`, { enabled: !report.enabled })
    location.reload()
  })

  const views = report.days.reduce((sum, day) => sum + day.views, 0)
  const visitors = report.days.reduce((sum, day) => sum + day.visitors, 0)
  render(
    projectHeader(project, 'insights'),
    h(
      'p',
      { class: 'muted' },
      report.enabled
        ? 'Counted by this server from the site’s own script: no cookie, no IP address, no third party. Readers with Do-Not-Track or Global Privacy Control send nothing.'
        : 'Insights are off: the sites keep no reader events. Counts from before stay.',
    ),
    h('div', { class: 'actions' }, range, exportButton, toggle),
    h(
      'section',
      { 'aria-labelledby': 'insights-views' },
      h('h2', { id: 'insights-views' }, 'Views over time'),
      h('p', { id: 'insights-summary' }, `${views} page views · ${visitors} daily visitors`),
      viewsChart(report.days),
    ),
    table(
      'Top pages',
      ['Page', 'Views'],
      report.pages.map((row) => [pageLink(project, row.key), String(row.total)]),
      'No page views in this range.',
    ),
    table(
      'Top referrers',
      ['Host', 'Views'],
      report.referrers.map((row) => [row.key, String(row.total)]),
      'No referrers in this range.',
    ),
    table(
      'Top searches',
      ['Query', 'Searches'],
      report.searches.map((row) => [row.key, String(row.total)]),
      'No searches in this range.',
    ),
    table(
      'Searches without results',
      ['Query', 'Searches', 'Closest pages', 'Synonym to add (docs.json)'],
      report.searchesWithoutResults.map((row) => {
        const closest = row.closest[0]
        const synonym = closest
          ? `"search": { "synonyms": { ${JSON.stringify(row.key)}: [${JSON.stringify(closest.title.toLowerCase())}] } }`
          : ''
        return [
          row.key,
          String(row.total),
          row.closest.length
            ? h(
                'span',
                {},
                ...row.closest.flatMap((page, index) => [
                  index ? ', ' : '',
                  pageLink(project, page.path),
                  ` ${page.title}`,
                ]),
              )
            : '–',
          synonym
            ? h('span', {}, h('code', {}, synonym), ' ', copyButton(synonym, `Copy synonym for ${row.key}`))
            : '–',
        ]
      }),
      'Every search found something.',
    ),
    table(
      'Feedback',
      ['Page', 'Helpful', 'Not helpful'],
      report.feedback.map((row) => [
        pageLink(project, row.path),
        String(row.helpful),
        String(row.notHelpful),
      ]),
      'No feedback in this range.',
    ),
    table(
      'Comments',
      ['Day', 'Page', 'Answer', 'Comment'],
      report.comments.map((row) => [
        row.day,
        pageLink(project, row.path),
        row.helpful ? 'Helpful' : 'Not helpful',
        row.comment,
      ]),
      'No comments in this range.',
    ),
    table(
      'Code copies',
      ['Page', 'Copies'],
      report.copies.map((row) => [pageLink(project, row.key), String(row.total)]),
      'No code copied in this range.',
    ),
    table(
      'Pages not found',
      ['Path', 'Seen', 'Redirect to add (docs.json)'],
      report.notFound.map((row) => {
        const redirect = row.redirect ? JSON.stringify(row.redirect) : ''
        return [
          pagePath(row.key),
          String(row.total),
          redirect
            ? h(
                'span',
                {},
                h('code', {}, redirect),
                ' ',
                copyButton(redirect, `Copy redirect for ${pagePath(row.key)}`),
              )
            : '–',
        ]
      }),
      'No missing pages in this range.',
    ),
  )
}
