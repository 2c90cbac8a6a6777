/** Your projects, each with its last deployment's status and time: search, open one, create one. */
import { api } from '../api.js'
import { apiForm, h, render, statusBadge, when } from '../dom.js'
import type { Deployment, Project } from '../types.js'
import { listDeployments } from './project.js'

/** The last deployment of each project (of any status), asked for all at once. */
async function lastDeployments(projects: Project[]): Promise<Map<string, Deployment | undefined>> {
  const last = await Promise.all(
    projects.map((project) =>
      listDeployments(project, 1)
        .then(({ deployments }) => deployments[0])
        .catch(() => undefined),
    ),
  )
  return new Map(projects.map((project, index) => [project.id, last[index]]))
}

function lastDeploy(deployment: Deployment | undefined): HTMLElement {
  if (!deployment) return h('p', { class: 'last-deploy' }, 'No deployments yet')
  return h(
    'p',
    { class: 'last-deploy' },
    statusBadge(deployment.status),
    deployment.live ? h('span', { class: 'badge live' }, 'live') : null,
    ` last deploy ${when(deployment.createdAt)}`,
  )
}

export async function projectsPage(): Promise<void> {
  const { projects } = await api<{ projects: Project[] }>('GET', '/projects/')
  const last = await lastDeployments(projects)
  const list = h('ul', { class: 'cards', id: 'project-list' })
  const empty = h('p', { class: 'muted' })
  const show = (query: string) => {
    const needle = query.trim().toLowerCase()
    const shown = projects.filter((project) =>
      `${project.name} ${project.slug} ${project.description ?? ''}`.toLowerCase().includes(needle),
    )
    list.replaceChildren(
      ...shown.map((project) =>
        h(
          'li',
          {},
          h('a', { href: `/dashboard/projects/${project.id}`, class: 'card-title' }, project.name),
          h('span', { class: 'muted' }, ` ${project.slug}`),
          h(
            'p',
            {},
            project.liveDeploymentId
              ? h('a', { href: project.url, target: '_blank', rel: 'noopener' }, project.url)
              : 'Not live yet',
          ),
          lastDeploy(last.get(project.id)),
        ),
      ),
    )
    empty.textContent = shown.length
      ? ''
      : projects.length
        ? 'No project matches.'
        : 'No projects yet: create one below.'
  }
  const search = h('input', { id: 'project-search', type: 'search', placeholder: 'Name or slug' })
  search.addEventListener('input', () => show(search.value))
  show('')
  render(
    h('h1', {}, 'Projects'),
    h('div', { class: 'field' }, h('label', { for: 'project-search' }, 'Search projects'), search),
    list,
    empty,
    h('h2', {}, 'New project'),
    apiForm({
      label: 'New project',
      submit: 'Create project',
      fields: [
        { name: 'name', label: 'Name', required: true },
        {
          name: 'slug',
          label: 'Slug',
          hint: 'Lower-case letters, digits and dashes: the site’s host name.',
          required: true,
        },
        { name: 'description', label: 'Description' },
      ],
      onSubmit: async (values) => {
        const body: Record<string, string> = { name: values.name ?? '', slug: values.slug ?? '' }
        if (values.description) body.description = values.description
        const project = await api<Project>('POST', '/projects/', body)
        location.assign(`/dashboard/projects/${project.id}`)
      },
    }),
  )
}
