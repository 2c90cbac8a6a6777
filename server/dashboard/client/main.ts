/** The dashboard's script: renders the page the server named, from the REST API. */
import { ApiFailure, signOut } from './api.js'
import { h, main, notFound, render } from './dom.js'
import { deploymentPage } from './pages/deployment.js'
import { domainsPage } from './pages/domains.js'
import { gitPage } from './pages/git.js'
import { insightsPage } from './pages/insights.js'
import { projectPage } from './pages/project.js'
import { projectsPage } from './pages/projects.js'
import { settingsPage } from './pages/settings.js'

const pages: Record<string, () => Promise<void>> = {
  projects: projectsPage,
  project: projectPage,
  deployment: deploymentPage,
  settings: settingsPage,
  domains: domainsPage,
  git: gitPage,
  insights: insightsPage,
}

document.getElementById('sign-out')?.addEventListener('click', async () => {
  await signOut().catch(() => undefined)
  location.assign('/dashboard/')
})

// A button's action the API refused (a deployment no longer ready, a key already revoked): say why.
window.addEventListener('unhandledrejection', (event) => {
  const failure: unknown = event.reason
  if (!(failure instanceof ApiFailure)) return
  event.preventDefault()
  if (failure.status === 401) return location.assign('/dashboard/')
  let banner = document.getElementById('action-error')
  if (!banner) {
    banner = h('p', { id: 'action-error', class: 'error', role: 'alert' })
    main().prepend(banner)
  }
  banner.textContent = failure.message
})

const page = pages[main().dataset.page ?? '']
if (page) {
  page().catch((failure: unknown) => {
    if (failure instanceof ApiFailure && failure.status === 404) return notFound(failure.message)
    if (failure instanceof ApiFailure && failure.status === 401) return location.assign('/dashboard/')
    render(h('h1', {}, 'Something went wrong'), h('p', { role: 'alert' }, String((failure as Error).message)))
  })
}
