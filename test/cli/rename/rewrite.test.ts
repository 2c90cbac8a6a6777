import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renameInConfig, renameInPage } from '../../../cli/rename/rewrite.js'

test('links to a folder index page by its folder path are renamed too, with anchors and queries', () => {
  const page = 'See [setup](/guide#install), [again](/guide/index?tab=npm) and [other](/guide-two).\n'
  assert.equal(
    renameInPage(page, 'index.mdx', 'guide/index', 'start/index'),
    'See [setup](/start/index#install), [again](/start/index?tab=npm) and [other](/guide-two).\n',
  )
})

test('external links, mail links and fragments are left as written', () => {
  const page = '[a](https://example.com/setup) [b](mailto:x@example.com) [c](#setup) [d](//cdn/setup)\n'
  assert.equal(renameInPage(page, 'index.mdx', 'setup', 'install'), page)
})

test('navigation entries written with a leading slash keep it; group names equal to the slug stay, one-line files stay on one line', () => {
  const config = '{"navigation":{"groups":[{"group":"setup","root":"/setup","pages":["/setup","setup"]}]}}'
  assert.equal(
    renameInConfig(config, 'setup', 'install'),
    '{"navigation":{"groups":[{"group":"setup","root":"/install","pages":["/install","install"]}]},"redirects": [{"source":"/setup","destination":"/install"}]}',
  )
})

test('renaming a page back drops the redirect away from its path instead of making a loop', () => {
  const config = `{
  "navigation": { "pages": ["install"] },
  "redirects": [
    { "source": "/old", "destination": "/elsewhere" },
    { "source": "/setup", "destination": "/install" }
  ]
}
`
  assert.equal(
    renameInConfig(config, 'install', 'setup'),
    `{
  "navigation": { "pages": ["setup"] },
  "redirects": [
    { "source": "/old", "destination": "/elsewhere" },
    { "source": "/install", "destination": "/setup" }
  ]
}
`,
  )
})
