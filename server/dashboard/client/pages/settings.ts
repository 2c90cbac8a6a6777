/** A project's settings: name and description, deploy keys, analytics, and deleting the project. */
import { api } from '../api.js'
import { apiForm, confirmDialog, copyButton, dataTable, h, labelCells, render, when } from '../dom.js'
import type { AnalyticsSettings, DeployKey, Project } from '../types.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

const keyColumns = ['Name', 'Prefix', 'Created', 'Last used', 'Actions']

function deployKeys(project: Project): HTMLElement {
  const base = `/projects/${project.id}/deploy-keys`
  const rows = h('tbody')
  const created = h('div', { id: 'new-key', 'aria-live': 'polite' })
  const load = async () => {
    const { deployKeys: keys } = await api<{ deployKeys: DeployKey[] }>('GET', base)
    rows.replaceChildren(
      ...keys.map((key) => {
        const revoke = h(
          'button',
          { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}` },
          'Revoke',
        )
        revoke.addEventListener('click', async () => {
          if (!(await confirmDialog(`Revoke “${key.name}”? Pushes with it will be refused.`, 'Revoke')))
            return
          await api('DELETE', `${base}/${key.id}`)
          await load()
        })
        return labelCells(
          h(
            'tr',
            {},
            h('td', {}, key.name),
            h('td', {}, h('code', {}, `${key.prefix}…`)),
            h('td', {}, when(key.createdAt)),
            h('td', {}, when(key.lastUsedAt)),
            h('td', {}, revoke),
          ),
          keyColumns,
        )
      }),
    )
    if (keys.length === 0)
      rows.append(h('tr', {}, h('td', { colspan: '5', class: 'muted' }, 'No deploy keys.')))
  }
  const section = h(
    'section',
    { 'aria-labelledby': 'keys-heading' },
    h('h2', { id: 'keys-heading' }, 'Deploy keys'),
    h(
      'p',
      {},
      'A deploy key may only push deployments of this project, e.g. from CI: DOCSCTL_API_KEY=dk_… docsctl push',
    ),
    dataTable({ label: 'Deploy keys', columns: keyColumns, rows }),
    apiForm({
      label: 'Create deploy key',
      submit: 'Create key',
      fields: [{ name: 'name', label: 'Key name', hint: 'What it is for, e.g. GitHub Actions.' }],
      onSubmit: async (values) => {
        const answer = await api<{ token: string; deployKey: DeployKey }>('POST', base, {
          name: values.name ?? '',
        })
        const value = h('input', {
          id: 'new-key-value',
          readonly: true,
          value: answer.token,
          'aria-label': 'New deploy key',
        })
        created.replaceChildren(
          h('p', {}, `Key “${answer.deployKey.name}” created. Copy it now: it is shown only once.`),
          h('div', { class: 'copy-row' }, value, copyButton(answer.token, 'Copy the new deploy key')),
        )
        await load()
      },
    }),
    created,
  )
  void load()
  return section
}

async function analytics(project: Project): Promise<HTMLElement> {
  const path = `/projects/${project.id}/analytics`
  const current = await api<AnalyticsSettings>('GET', path)
  const remove = current.posthog
    ? h('button', { type: 'button', class: 'danger' }, 'Turn analytics off')
    : null
  remove?.addEventListener('click', async () => {
    await api('DELETE', path)
    location.reload()
  })
  return h(
    'section',
    { 'aria-labelledby': 'analytics-heading' },
    h('h2', { id: 'analytics-heading' }, 'Analytics'),
    h('p', {}, current.posthog ? `PostHog, project key ${current.posthog.key}` : 'No analytics provider.'),
    apiForm({
      label: 'Analytics provider',
      submit: 'Save analytics',
      fields: [
        { name: 'key', label: 'PostHog project key', value: current.posthog?.key ?? '', hint: 'phc_…' },
        { name: 'host', label: 'PostHog host', value: current.posthog?.host ?? 'https://us.i.posthog.com' },
      ],
      onSubmit: async (values) => {
        await api('PUT', path, { provider: 'posthog', key: values.key ?? '', host: values.host ?? '' })
        location.reload()
      },
    }),
    remove ?? '',
  )
}

function deleteProject(project: Project): HTMLElement {
  const input = h('input', { id: 'delete-slug', autocomplete: 'off', 'aria-describedby': 'delete-hint' })
  const button = h('button', { type: 'submit', class: 'danger', disabled: true }, 'Delete project')
  input.addEventListener('input', () => {
    button.disabled = input.value !== project.slug
  })
  const form = h(
    'form',
    { 'aria-label': 'Delete project' },
    h('div', { class: 'field' }, h('label', { for: 'delete-slug' }, 'Type the slug to confirm'), input),
    h(
      'p',
      { class: 'hint', id: 'delete-hint' },
      `Deleting removes every deployment and takes ${project.url} offline. Type ${project.slug}.`,
    ),
    button,
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (input.value !== project.slug) return
    await api('DELETE', `/projects/${project.id}`)
    location.assign('/dashboard/')
  })
  return h(
    'section',
    { 'aria-labelledby': 'delete-heading', class: 'danger-zone' },
    h('h2', { id: 'delete-heading' }, 'Delete project'),
    form,
  )
}

export async function settingsPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  render(
    projectHeader(project, 'settings'),
    h('h2', {}, 'General'),
    apiForm({
      label: 'General settings',
      submit: 'Save',
      fields: [
        { name: 'name', label: 'Name', value: project.name },
        { name: 'description', label: 'Description', value: project.description ?? '' },
      ],
      onSubmit: async (values) => {
        await api('PATCH', `/projects/${project.id}`, {
          name: values.name ?? '',
          description: values.description || null,
        })
        location.reload()
      },
    }),
    deployKeys(project),
    await analytics(project),
    deleteProject(project),
  )
}
