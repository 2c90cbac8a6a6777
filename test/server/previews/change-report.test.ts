/**
 * A preview's change report through the API: one page edited, one renamed without a redirect, a link
 * broken and an anchor broken; the report lists exactly those, kept once made, and the screenshots
 * say why there are none without Chromium. The images route serves only a report's own images.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ChangeReport } from '../../../cli/api.js'
import { appWithProject, bearer, deploy } from '../helper.js'
import { liveFiles, previewFiles, siteOf } from './sites.js'

test('a preview reports the pages, links, redirects and navigation it changes against live', async (t) => {
  const { app, token } = await appWithProject(t, 'acme')
  const live = await deploy(app, token, 'acme', siteOf(liveFiles()))
  assert.equal(live.finalized.statusCode, 200, live.finalized.body)
  const preview = await deploy(app, token, 'acme', siteOf(liveFiles(), previewFiles()), { promote: false })
  assert.equal(preview.finalized.statusCode, 200, preview.finalized.body)

  const response = await app.inject({
    method: 'GET',
    url: `/projects/slug/acme/deployments/${preview.id}/report`,
    headers: bearer(token),
  })
  assert.equal(response.statusCode, 200, response.body)
  const report = response.json() as ChangeReport
  assert.equal(report.status, 'ready')
  assert.equal(report.baseDeploymentId, live.id)
  assert.deepEqual(report.pages.added, [{ slug: 'payments', title: 'Billing' }])
  assert.deepEqual(report.pages.removed, [{ slug: 'billing', title: 'Billing' }])
  assert.deepEqual(
    report.pages.changed.map((changed) => changed.slug),
    ['setup'],
  )
  const setup = report.pages.changed.find((changed) => changed.slug === 'setup')
  assert.match(setup?.diff ?? '', /^-## Install$/m)
  assert.match(setup?.diff ?? '', /^\+## Installation$/m)
  assert.equal(report.pages.unchanged, 2)
  assert.deepEqual(
    report.links.introduced.map((link) => [link.page, link.target, link.problem]),
    [
      ['index', '/billing/', 'missing-page'],
      ['index', '/setup/#install', 'missing-anchor'],
    ],
  )
  assert.deepEqual(report.links.fixed, [])
  assert.deepEqual(report.missingRedirects, [
    {
      slug: 'billing',
      title: 'Billing',
      renamedTo: 'payments',
      redirect: { source: '/billing', destination: '/payments' },
    },
  ])
  assert.deepEqual(
    report.navigation.map((change) => [change.change, change.slug]),
    [
      ['added', 'payments'],
      ['removed', 'billing'],
    ],
  )
  assert.equal(report.screenshots.taken, false)
  assert.match(report.screenshots.reason ?? '', /--chromium/)
  assert.match(report.summary, /Removed pages without a redirect/)
  assert.match(report.summary, /"source":"\/billing","destination":"\/payments"/)
  assert.match(report.url, new RegExp(`/projects/slug/acme/deployments/${preview.id}/report$`))

  // Made once: the live deployment changing later does not change the report.
  const again = await app.inject({
    method: 'GET',
    url: `/projects/slug/acme/deployments/${preview.id}/report`,
    headers: bearer(token),
  })
  assert.equal(again.json().createdAt, report.createdAt)

  const image = await app.inject({
    method: 'GET',
    url: `/projects/slug/acme/deployments/${preview.id}/report/images/${'a'.repeat(64)}`,
    headers: bearer(token),
  })
  assert.equal(image.statusCode, 404)
  const stranger = await app.inject({
    method: 'GET',
    url: `/projects/slug/acme/deployments/${preview.id}/report`,
  })
  assert.equal(stranger.statusCode, 401)
})

test('the report is in the OpenAPI document', async (t) => {
  const { app } = await appWithProject(t, 'acme')
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>
    components: { schemas: Record<string, unknown> }
  }
  assert.ok(document.paths['/projects/slug/{slug}/deployments/{id}/report']?.get)
  assert.ok(document.components.schemas.ChangeReport)
})
