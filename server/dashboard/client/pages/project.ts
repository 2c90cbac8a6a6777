/** A project's overview: its live deployment and the last deployments, refreshed while open. */
import { api } from '../api.js'
import { bytes, dataTable, every, h, labelCells, render, statusBadge, when } from '../dom.js'
import type { Deployment, DeploymentFiles, Project } from '../types.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

export const duration = (deployment: Deployment): string => {
  const ms = (deployment.timings.uploadMs ?? 0) + (deployment.timings.buildMs ?? 0)
  return ms ? `${(ms / 1000).toFixed(1)} s` : '–'
}

export const listDeployments = (project: Project, limit = 20) =>
  api<{ deployments: Deployment[] }>('GET', `/projects/slug/${project.slug}/deployments?limit=${limit}`)

const columns = [
  'Created',
  'Deployment',
  'Status',
  'Branch',
  'Commit message',
  'Author',
  'Duration',
  'Size',
  'Files',
  'Changed',
]

export async function projectPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  const live = h('section', { 'aria-labelledby': 'live-heading' })
  const rows = h('tbody')
  // A deployment's files never change once created, so each count is asked for once.
  const changedCounts = new Map<string, Promise<string>>()
  const changedCount = (deployment: Deployment): HTMLElement => {
    let count = changedCounts.get(deployment.id)
    if (!count) {
      count = api<DeploymentFiles>(
        'GET',
        `/projects/slug/${project.slug}/deployments/${deployment.id}/files?summary=true`,
      )
        .then((listing) => String(listing.changedCount))
        .catch(() => '–')
      changedCounts.set(deployment.id, count)
    }
    const cell = h('td', {}, '…')
    void count.then((text) => {
      cell.textContent = text
    })
    return cell
  }
  const show = (deployments: Deployment[]) => {
    const current = deployments.find((deployment) => deployment.live)
    live.replaceChildren(
      h('h2', { id: 'live-heading' }, 'Live deployment'),
      current
        ? h(
            'p',
            {},
            h('a', { href: `/dashboard/projects/${project.id}/deployments/${current.id}` }, current.id),
            ...[current.branch, current.commitMessage].filter(Boolean).map((part) => ` · ${part}`),
          )
        : h('p', { class: 'muted' }, 'Nothing live yet. Push with: docsctl push'),
    )
    rows.replaceChildren(
      ...deployments
        .map((deployment) =>
          h(
            'tr',
            { 'data-deployment': deployment.id },
            h(
              'td',
              {},
              h(
                'a',
                { href: `/dashboard/projects/${project.id}/deployments/${deployment.id}` },
                when(deployment.createdAt),
              ),
            ),
            h('td', {}, h('code', {}, deployment.id)),
            h(
              'td',
              {},
              statusBadge(deployment.status),
              deployment.live ? h('span', { class: 'badge live' }, 'live') : null,
              deployment.environment === 'preview' ? h('span', { class: 'badge preview' }, 'preview') : null,
            ),
            h('td', {}, deployment.branch),
            h('td', { class: 'message' }, deployment.commitMessage ?? ''),
            h('td', {}, deployment.commitAuthor ?? '–'),
            h('td', {}, duration(deployment)),
            h('td', {}, bytes(deployment.totalBytes)),
            h('td', {}, String(deployment.fileCount)),
            changedCount(deployment),
          ),
        )
        .map((row) => labelCells(row, columns)),
    )
  }
  show((await listDeployments(project)).deployments)
  render(
    projectHeader(project, 'overview'),
    live,
    h('h2', {}, 'Deployments'),
    dataTable({ label: 'Deployments', columns, rows }),
  )
  every(2000, async () => show((await listDeployments(project)).deployments))
}
