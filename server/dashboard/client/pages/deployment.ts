/** One deployment: status (updated live while it builds), diagnostics by file, preview, promote or roll back. */
import { api } from '../api.js'
import { bytes, confirmDialog, dataTable, every, h, render, statusBadge, when } from '../dom.js'
import type { Deployment, DeploymentFiles, Diagnostic, DiagnosticPage, Project } from '../types.js'
import { changeReportOf } from './change-report.js'
import { duration } from './project.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

const deploymentIdOfPage = (): string => decodeURIComponent(location.pathname.split('/')[5] ?? '')

function diagnosticsByFile(diagnostics: Diagnostic[]): HTMLElement {
  if (diagnostics.length === 0) return h('p', { class: 'muted' }, 'No diagnostics.')
  const byFile = new Map<string, Diagnostic[]>()
  for (const diagnostic of diagnostics) {
    const file = diagnostic.file ?? '(site)'
    byFile.set(file, [...(byFile.get(file) ?? []), diagnostic])
  }
  return h(
    'div',
    { id: 'diagnostics' },
    ...[...byFile].map(([file, items]) =>
      h(
        'section',
        { class: 'diagnostic-file' },
        h('h3', {}, file),
        h(
          'ul',
          {},
          ...items.map((item) =>
            h(
              'li',
              { class: item.severity },
              h(
                'span',
                { class: `badge ${item.severity === 'error' ? 'failed' : 'warning'}` },
                item.severity,
              ),
              ` ${item.line === undefined ? '' : `line ${item.line}${item.column === undefined ? '' : `:${item.column}`}: `}${item.message}`,
            ),
          ),
        ),
      ),
    ),
  )
}

/** The diagnostics the deployment carries, and a button that loads the rest page by page. */
function diagnosticsOf(path: string, deployment: Deployment): HTMLElement {
  const shown = deployment.diagnostics ?? []
  const section = h('div', {}, diagnosticsByFile(shown))
  if (deployment.diagnosticCount <= shown.length) return section
  const more = h(
    'button',
    { type: 'button', id: 'more-diagnostics' },
    `Show all ${deployment.diagnosticCount} diagnostics`,
  )
  more.addEventListener('click', async () => {
    more.disabled = true
    const all: Diagnostic[] = []
    let cursor: string | null = '0'
    while (cursor !== null) {
      const page: DiagnosticPage = await api<DiagnosticPage>(
        'GET',
        `${path}/diagnostics?limit=500&cursor=${encodeURIComponent(cursor)}`,
      )
      all.push(...page.diagnostics)
      cursor = page.nextCursor
    }
    section.replaceChildren(diagnosticsByFile(all))
  })
  section.append(more)
  return section
}

function fileList(listing: DeploymentFiles): HTMLElement {
  const changed = listing.files.filter((file) => file.change !== 'unchanged')
  const row = (path: string, size: string, change: string) =>
    h(
      'tr',
      {},
      h('td', {}, h('code', {}, path)),
      h('td', {}, size),
      h('td', {}, h('span', { class: `badge ${change}` }, change)),
    )
  return dataTable({
    label: 'Files',
    id: 'files',
    columns: ['Path', 'Size', 'Change'],
    rows: h(
      'tbody',
      {},
      // Changes first: they are what a reader of this page looks for.
      ...[...changed, ...listing.files.filter((file) => file.change === 'unchanged')].map((file) =>
        row(file.path, bytes(file.size), file.change),
      ),
      ...listing.removed.map((path) => row(path, '–', 'removed')),
    ),
  })
}

export async function deploymentPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  const path = `/projects/slug/${project.slug}/deployments/${deploymentIdOfPage()}`
  const details = h('div')
  const listing = await api<DeploymentFiles>('GET', `${path}/files`)
  const changes = listing.previousDeploymentId
    ? `${listing.changedCount} since ${listing.previousDeploymentId}`
    : `${listing.changedCount} (first deployment)`
  // A ready deployment that is not live is a preview: it is compared with the live one, once.
  let report: HTMLElement | undefined
  const show = (deployment: Deployment, liveCreatedAt: string | undefined) => {
    if (!report && deployment.status === 'ready' && !deployment.live) report = changeReportOf(path)
    const older = liveCreatedAt !== undefined && deployment.createdAt < liveCreatedAt
    const promote =
      deployment.status === 'ready' && !deployment.live
        ? h(
            'button',
            { type: 'button', class: 'primary', id: 'promote' },
            older ? 'Roll back to this deployment' : 'Promote to live',
          )
        : null
    promote?.addEventListener('click', async () => {
      const verb = older ? 'Roll back' : 'Promote'
      if (!(await confirmDialog(`${verb}: ${project.url} will serve deployment ${deployment.id}.`, verb)))
        return
      await api<Deployment>('POST', `${path}/promote`)
      await refresh()
    })
    details.replaceChildren(
      h('h2', {}, `Deployment ${deployment.id}`),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Status'),
        h(
          'dd',
          {},
          h(
            'span',
            { id: 'deployment-status', role: 'status' },
            statusBadge(deployment.status),
            deployment.live ? h('span', { class: 'badge live' }, 'live') : null,
            deployment.environment === 'preview' ? h('span', { class: 'badge preview' }, 'preview') : null,
          ),
        ),
        h('dt', {}, 'Branch'),
        h('dd', {}, deployment.branch),
        h('dt', {}, 'Commit message'),
        h('dd', {}, deployment.commitMessage ?? '–'),
        h('dt', {}, 'Author'),
        h('dd', {}, deployment.commitAuthor ?? '–'),
        h('dt', {}, 'Created'),
        h('dd', {}, when(deployment.createdAt)),
        h('dt', {}, 'Duration'),
        h('dd', {}, duration(deployment)),
        h('dt', {}, 'Files'),
        h('dd', {}, `${deployment.fileCount} (${bytes(deployment.totalBytes)})`),
        h('dt', {}, 'Changed files'),
        h('dd', { id: 'changed-files' }, changes),
        h('dt', {}, 'Preview'),
        h(
          'dd',
          {},
          deployment.previewUrl
            ? h(
                'a',
                { href: deployment.previewUrl, target: '_blank', rel: 'noopener', id: 'preview-link' },
                deployment.previewUrl,
              )
            : '–',
        ),
      ),
      promote ?? '',
      h(
        'h2',
        {},
        deployment.diagnosticCount === 0
          ? 'Diagnostics'
          : `Diagnostics (${deployment.diagnosticCount}, ${deployment.errorCount} error${deployment.errorCount === 1 ? '' : 's'})`,
      ),
      diagnosticsOf(path, deployment),
      ...(report ? [h('h2', {}, 'Changes against live'), report] : []),
      h('h2', {}, 'Files'),
      fileList(listing),
    )
    return deployment.status === 'uploading' || deployment.status === 'building'
  }
  const refresh = async () => {
    const [deployment, updated] = await Promise.all([
      api<Deployment>('GET', path),
      api<Project>('GET', `/projects/${project.id}`),
    ])
    let liveCreatedAt: string | undefined
    if (updated.liveDeploymentId && updated.liveDeploymentId !== deployment.id) {
      liveCreatedAt = (
        await api<Deployment>('GET', `/projects/slug/${project.slug}/deployments/${updated.liveDeploymentId}`)
      ).createdAt
    }
    return show(deployment, liveCreatedAt)
  }
  const building = await refresh()
  render(projectHeader(project, 'overview'), details)
  if (building) every(1000, refresh)
}
