/** A project's custom domains: add one, the DNS records to create, verify now, status, remove. */
import { api } from '../api.js'
import { apiForm, confirmDialog, copyButton, dataTable, h, render, statusBadge, when } from '../dom.js'
import type { Domain, Project } from '../types.js'
import { loadProject, projectHeader, projectIdOfPage } from './project-nav.js'

function domainCard(project: Project, domain: Domain, reload: () => Promise<void>): HTMLElement {
  const base = `/projects/${project.id}/domains/${domain.id}`
  const verify = h('button', { type: 'button' }, 'Verify now')
  verify.addEventListener('click', async () => {
    verify.disabled = true
    await api('POST', `${base}/verify`).catch(() => undefined)
    await reload()
  })
  const remove = h('button', { type: 'button', class: 'danger' }, 'Remove')
  remove.addEventListener('click', async () => {
    if (
      !(await confirmDialog(
        `Remove ${domain.hostname}${domain.pathPrefix === '/' ? '' : domain.pathPrefix}? It stops serving the site.`,
        'Remove',
      ))
    )
      return
    await api('DELETE', base)
    await reload()
  })
  return h(
    'article',
    { class: 'domain' },
    h('h3', {}, `${domain.hostname}${domain.pathPrefix === '/' ? '' : domain.pathPrefix}`),
    h(
      'p',
      {},
      statusBadge(domain.status),
      domain.serving ? ' serving' : ' not serving',
      ` · last checked ${when(domain.lastCheckedAt)}`,
    ),
    domain.failure ? h('p', { class: 'error' }, `${domain.failure.reason}: ${domain.failure.message}`) : null,
    dataTable({
      label: `DNS records for ${domain.hostname}`,
      columns: ['Type', 'Name', 'Value', 'For', 'Check'],
      rows: h(
        'tbody',
        {},
        ...domain.records.map((record) =>
          h(
            'tr',
            {},
            h('td', {}, record.type),
            h('td', {}, h('code', {}, record.name), ' ', copyButton(record.name, `Copy name ${record.name}`)),
            h(
              'td',
              {},
              h('code', {}, record.value),
              ' ',
              copyButton(record.value, `Copy value ${record.value}`),
            ),
            h('td', {}, record.use === 'always' ? record.purpose : `${record.purpose} (${record.use})`),
            h('td', {}, record.status),
          ),
        ),
      ),
    }),
    h('p', { class: 'actions' }, verify, remove),
  )
}

export async function domainsPage(): Promise<void> {
  const project = await loadProject(projectIdOfPage())
  const list = h('div', { id: 'domain-list' })
  const reload = async () => {
    const { domains } = await api<{ domains: Domain[] }>('GET', `/projects/${project.id}/domains`)
    list.replaceChildren(
      ...(domains.length
        ? domains.map((domain) => domainCard(project, domain, reload))
        : [h('p', { class: 'muted' }, 'No custom domains.')]),
    )
  }
  await reload()
  render(
    projectHeader(project, 'domains'),
    h('h2', {}, 'Custom domains'),
    list,
    h('h2', {}, 'Add a domain'),
    apiForm({
      label: 'Add domain',
      submit: 'Add domain',
      fields: [
        { name: 'hostname', label: 'Host name', hint: 'e.g. docs.example.com' },
        { name: 'pathPrefix', label: 'Path prefix (optional)', hint: 'e.g. /docs; empty for the whole host' },
      ],
      onSubmit: async (values) => {
        const body: Record<string, string> = { hostname: values.hostname ?? '' }
        if (values.pathPrefix) body.pathPrefix = values.pathPrefix
        await api('POST', `/projects/${project.id}/domains`, body)
        await reload()
      },
    }),
  )
}
