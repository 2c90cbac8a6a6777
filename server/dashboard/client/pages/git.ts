/** A project's Git connection: the repository and branches that deploy, the webhook to set up, recent deliveries. */
import { api } from '../api.js'
import { apiForm, confirmDialog, copyButton, dataTable, h, render, statusBadge, when } from '../dom.js'
import type { Project } from '../types.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

interface GitSettings {
  connection: {
    provider: 'github' | 'gitlab' | 'gitea'
    repositoryUrl: string
    productionBranch: string
    docsDirectory: string | null
    previewBranches: string[]
    buildForkRequests: boolean
    webhook: { url: string; secret: string | null; events: string[] }
  } | null
  deliveries: {
    id: string
    branch: string
    commitSha: string
    commitMessage: string | null
    commitAuthor: string | null
    status: string
    deploymentId: string | null
    detail: string | null
    createdAt: string
  }[]
}

function connectionDetails(project: Project, settings: GitSettings): HTMLElement {
  const connection = settings.connection
  if (!connection) return h('p', { class: 'muted' }, 'Not connected: pushes to a repository do not deploy.')
  const disconnect = h('button', { type: 'button', class: 'danger' }, 'Disconnect')
  disconnect.addEventListener('click', async () => {
    if (
      !(await confirmDialog(
        `Disconnect ${connection.repositoryUrl}? Its pushes stop deploying.`,
        'Disconnect',
      ))
    )
      return
    await api('DELETE', `/projects/${project.id}/git`)
    location.reload()
  })
  const { webhook } = connection
  return h(
    'div',
    {},
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Repository'),
      h('dd', {}, `${connection.provider}: ${connection.repositoryUrl}`),
      h('dt', {}, 'Production branch'),
      h('dd', {}, connection.productionBranch),
      h('dt', {}, 'Preview branches'),
      h('dd', {}, connection.previewBranches.join(', ') || '–'),
      h('dt', {}, 'Requests from forks'),
      h('dd', {}, connection.buildForkRequests ? 'previewed' : 'not built'),
      h('dt', {}, 'Docs folder'),
      h('dd', {}, connection.docsDirectory ?? '(repository root)'),
      h('dt', {}, 'Webhook URL'),
      h('dd', {}, h('code', {}, webhook.url), ' ', copyButton(webhook.url, 'Copy the webhook URL')),
      h('dt', {}, 'Webhook secret'),
      h(
        'dd',
        {},
        webhook.secret ? h('code', {}, webhook.secret) : '–',
        webhook.secret ? copyButton(webhook.secret, 'Copy the webhook secret') : null,
      ),
      h('dt', {}, 'Events'),
      h('dd', {}, webhook.events.join(', ')),
    ),
    h('p', {}, disconnect),
  )
}

export async function gitPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  const path = `/projects/${project.id}/git`
  const settings = await api<GitSettings>('GET', path)
  const connection = settings.connection
  render(
    projectHeader(project, 'git'),
    h('h2', {}, 'Git connection'),
    connectionDetails(project, settings),
    h('h2', {}, connection ? 'Change the connection' : 'Connect a repository'),
    apiForm({
      label: 'Git connection',
      submit: connection ? 'Save connection' : 'Connect',
      fields: [
        {
          name: 'provider',
          label: 'Provider',
          value: connection?.provider ?? 'github',
          options: ['github', 'gitlab', 'gitea'],
          hint: 'gitea also covers Forgejo',
        },
        {
          name: 'repositoryUrl',
          label: 'Repository URL',
          value: connection?.repositoryUrl ?? '',
          hint: 'The https clone URL',
        },
        {
          name: 'productionBranch',
          label: 'Production branch',
          value: connection?.productionBranch ?? 'main',
        },
        { name: 'docsDirectory', label: 'Docs folder (optional)', value: connection?.docsDirectory ?? '' },
        {
          name: 'previewBranches',
          label: 'Preview branches (optional)',
          value: connection?.previewBranches.join(', ') ?? '',
          hint: 'Comma-separated names or patterns',
        },
        {
          name: 'buildForkRequests',
          label: 'Preview pull requests from forks',
          value: connection?.buildForkRequests ? 'yes' : 'no',
          options: ['no', 'yes'],
          hint: 'Built without any secret of the project; every other request gets a preview',
        },
      ],
      onSubmit: async (values) => {
        await api('PUT', path, {
          provider: values.provider ?? '',
          repositoryUrl: values.repositoryUrl ?? '',
          productionBranch: values.productionBranch || 'main',
          docsDirectory: values.docsDirectory || null,
          previewBranches: (values.previewBranches ?? '')
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
          buildForkRequests: values.buildForkRequests === 'yes',
        })
        location.reload()
      },
    }),
    h('h2', {}, 'Recent deliveries'),
    settings.deliveries.length
      ? dataTable({
          label: 'Recent deliveries',
          columns: ['Received', 'Status', 'Branch', 'Commit', 'Author', 'Deployment'],
          rows: h(
            'tbody',
            {},
            ...settings.deliveries.map((delivery) =>
              h(
                'tr',
                {},
                h('td', {}, when(delivery.createdAt)),
                h('td', {}, statusBadge(delivery.status), delivery.detail ? ` ${delivery.detail}` : ''),
                h('td', {}, delivery.branch),
                h(
                  'td',
                  {},
                  h('code', {}, delivery.commitSha.slice(0, 7)),
                  ` ${delivery.commitMessage ?? ''}`,
                ),
                h('td', {}, delivery.commitAuthor ?? '–'),
                h(
                  'td',
                  {},
                  delivery.deploymentId
                    ? h(
                        'a',
                        { href: `/dashboard/projects/${project.id}/deployments/${delivery.deploymentId}` },
                        delivery.deploymentId,
                      )
                    : '–',
                ),
              ),
            ),
          ),
        })
      : h('p', { class: 'muted' }, 'No deliveries yet.'),
  )
}
