/**
 * "Changes against live" on a preview's deployment page: the change report's pages, broken links,
 * missing redirects, new warnings and navigation changes, each changed page's Markdown diff, and the
 * screenshots of live and preview side by side with their difference image.
 */
import { api } from '../api.js'
import { h } from '../dom.js'
import type { ChangeReport } from '../types.js'

const list = (id: string, title: string, items: (string | HTMLElement)[]): HTMLElement | null =>
  items.length === 0
    ? null
    : h(
        'section',
        { id },
        h('h3', {}, `${title} (${items.length})`),
        h('ul', {}, ...items.map((item) => h('li', {}, item))),
      )

const code = (text: string) => h('code', {}, text)

function diffBlock(diff: string): HTMLElement {
  const pre = h('pre', { class: 'diff', tabindex: '0' })
  for (const line of diff.split('\n')) {
    const kind = line.startsWith('+')
      ? 'added'
      : line.startsWith('-')
        ? 'removed'
        : line.startsWith('@@')
          ? 'hunk'
          : ''
    pre.append(h('span', kind ? { class: `diff-${kind}` } : {}, `${line}\n`))
  }
  return pre
}

function screenshots(report: ChangeReport): HTMLElement {
  const { taken, reason, pages } = report.screenshots
  if (!taken) return h('p', { class: 'muted', id: 'screenshots-reason' }, reason ?? 'No screenshots.')
  const image = (label: string, picture: { url: string } | null) =>
    h(
      'figure',
      {},
      // Same origin as the dashboard, whatever public URL the server names: the session cookie goes along.
      picture
        ? h('img', { src: new URL(picture.url).pathname, alt: label })
        : h('p', { class: 'muted' }, 'New page'),
      h('figcaption', {}, label),
    )
  return h(
    'div',
    { id: 'screenshots' },
    ...pages.map((shot) =>
      h(
        'section',
        { class: 'screenshot-row' },
        h(
          'h4',
          {},
          `${shot.slug} · ${shot.viewport} (${shot.width}px) · ${shot.differentPixels} pixels differ`,
        ),
        h(
          'div',
          { class: 'side-by-side' },
          image(`Live: ${shot.slug}, ${shot.viewport}`, shot.live),
          image(`Preview: ${shot.slug}, ${shot.viewport}`, shot.preview),
          image(`Difference: ${shot.slug}, ${shot.viewport}`, shot.difference),
        ),
      ),
    ),
  )
}

export function changeReportSection(report: ChangeReport): HTMLElement {
  if (report.status === 'failed')
    return h(
      'p',
      { class: 'muted' },
      `The change report could not be made: ${report.error ?? 'unknown error'}`,
    )
  const { pages, links, warnings, missingRedirects, navigation } = report
  return h(
    'div',
    { id: 'change-report' },
    h(
      'p',
      { id: 'change-summary' },
      `${pages.changed.length} changed, ${pages.added.length} added, ${pages.removed.length} removed, ${pages.unchanged} unchanged; ${links.introduced.length} broken link(s) introduced, ${links.fixed.length} fixed.`,
    ),
    list(
      'report-links',
      'Broken links introduced',
      links.introduced.map((link) =>
        h(
          'span',
          {},
          code(link.page),
          ` links to `,
          code(link.href),
          link.problem === 'missing-anchor' ? ': no such anchor' : ': no such page',
        ),
      ),
    ),
    list(
      'report-fixed',
      'Broken links fixed',
      links.fixed.map((link) => h('span', {}, code(link.page), ' → ', code(link.href))),
    ),
    list(
      'report-redirects',
      'Removed pages without a redirect',
      missingRedirects.map((page) =>
        h(
          'span',
          {},
          code(page.slug),
          page.renamedTo ? ` (renamed to ${page.renamedTo}) ` : ' ',
          'add: ',
          code(JSON.stringify(page.redirect)),
        ),
      ),
    ),
    list(
      'report-warnings',
      'New warnings',
      warnings.introduced.map((warning) => `${warning.file}: ${warning.message}`),
    ),
    list(
      'report-added',
      'Pages added',
      pages.added.map((page) => h('span', {}, code(page.slug), ` ${page.title}`)),
    ),
    list(
      'report-removed',
      'Pages removed',
      pages.removed.map((page) => h('span', {}, code(page.slug), ` ${page.title}`)),
    ),
    list(
      'report-navigation',
      'Navigation',
      navigation.map((change) => `${change.change}: ${change.before ?? '–'} → ${change.after ?? '–'}`),
    ),
    pages.changed.length
      ? h(
          'section',
          { id: 'report-changed' },
          h('h3', {}, `Pages changed (${pages.changed.length})`),
          ...pages.changed.map((page) =>
            h('details', {}, h('summary', {}, code(page.slug), ` ${page.title}`), diffBlock(page.diff)),
          ),
        )
      : null,
    h('h3', {}, 'Screenshots'),
    screenshots(report),
  )
}

/** The section, loaded after the page is shown (a first report may take a few seconds to make). */
export function changeReportOf(path: string): HTMLElement {
  const section = h(
    'div',
    { id: 'change-report-slot' },
    h('p', { class: 'muted', role: 'status' }, 'Comparing with the live site…'),
  )
  api<ChangeReport>('GET', `${path}/report`).then(
    (report) => section.replaceChildren(changeReportSection(report)),
    (error: unknown) =>
      section.replaceChildren(
        h(
          'p',
          { class: 'muted' },
          `No change report: ${error instanceof Error ? error.message : String(error)}`,
        ),
      ),
  )
  return section
}
