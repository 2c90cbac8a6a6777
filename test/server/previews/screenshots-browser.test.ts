/**
 * A change report's screenshots with the server given Chromium: the changed and the added page at a
 * desktop and a phone width, live beside preview with a difference image for the changed one, stored
 * as blobs the API serves as PNG to the project's owner only.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PNG } from 'pngjs'
import type { ChangeReport } from '../../../cli/api.js'
import { chromiumPath, noChromium } from '../../chromium.js'
import { assertTierAllows } from '../../tier.js'
import { appWithProject, bearer, deploy, signIn } from '../helper.js'
import { liveFiles, previewFiles, siteOf } from './sites.js'

test('screenshots of changed pages, live and preview, with a difference image', {
  skip: noChromium,
}, async (t) => {
  assertTierAllows('Chromium')
  const { app, token } = await appWithProject(t, 'acme', 'sqlite', { chromiumPath, reportScreenshots: 5 })
  await deploy(app, token, 'acme', siteOf(liveFiles()))
  const preview = await deploy(app, token, 'acme', siteOf(liveFiles(), previewFiles()), { promote: false })
  const response = await app.inject({
    url: `/projects/slug/acme/deployments/${preview.id}/report`,
    headers: bearer(token),
  })
  assert.equal(response.statusCode, 200, response.body)
  const { screenshots } = response.json() as ChangeReport
  assert.equal(screenshots.taken, true, screenshots.reason ?? '')
  assert.deepEqual(
    screenshots.pages.map((shot) => [shot.slug, shot.viewport, shot.live !== null, shot.difference !== null]),
    [
      ['setup', 'desktop', true, true],
      ['payments', 'desktop', false, false],
      ['setup', 'phone', true, true],
      ['payments', 'phone', false, false],
    ],
  )
  const setup = screenshots.pages[0]
  assert.ok(setup?.difference && setup.differentPixels > 0, 'the renamed heading shows in the difference')
  const image = await app.inject({ url: new URL(setup.difference.url).pathname, headers: bearer(token) })
  assert.equal(image.statusCode, 200)
  assert.equal(image.headers['content-type'], 'image/png')
  const png = PNG.sync.read(image.rawPayload)
  assert.equal(png.width, 1280)
  const phone = screenshots.pages[2]
  const phoneImage = await app.inject({
    url: new URL(phone?.preview?.url ?? '').pathname,
    headers: bearer(token),
  })
  assert.equal(PNG.sync.read(phoneImage.rawPayload).width, 390)

  const stranger = await signIn(app, 'eve@example.com')
  const refused = await app.inject({ url: new URL(setup.difference.url).pathname, headers: bearer(stranger) })
  assert.equal(refused.statusCode, 404)
})
