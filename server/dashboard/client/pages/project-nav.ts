/** The heading and tabs every page of one project shares. */
import { api } from '../api.js'
import { h } from '../dom.js'
import type { Project } from '../types.js'

export const projectIdOfPage = (): string => decodeURIComponent(location.pathname.split('/')[3] ?? '')

export const loadProject = (projectId: string) =>
  api<Project>('GET', `/projects/${encodeURIComponent(projectId)}`)

export function projectHeader(
  project: Project,
  current: 'overview' | 'insights' | 'settings' | 'domains' | 'git',
): HTMLElement {
  const base = `/dashboard/projects/${project.id}`
  const tab = (name: typeof current, href: string, label: string) =>
    h('a', { href, 'aria-current': current === name ? 'page' : undefined }, label)
  return h(
    'div',
    { class: 'project-head' },
    h('p', { class: 'crumbs' }, h('a', { href: '/dashboard/' }, 'Projects'), ' / ', project.slug),
    h('h1', {}, project.name),
    h(
      'p',
      {},
      project.liveDeploymentId ? 'Live at ' : 'Not live yet; a push makes it live at ',
      h('a', { href: project.url, target: '_blank', rel: 'noopener' }, project.url),
    ),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Project' },
      tab('overview', base, 'Overview'),
      tab('insights', `${base}/insights`, 'Insights'),
      tab('settings', `${base}/settings`, 'Settings'),
      tab('domains', `${base}/domains`, 'Domains'),
      tab('git', `${base}/git`, 'Git'),
    ),
  )
}
