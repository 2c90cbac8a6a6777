import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  configHref,
  markdownOutputPath,
  pageHref,
  pageOutputPath,
  rootPrefix,
  siteHref,
} from '../../../compiler/theme/urls.js'

test('pages live at <slug>/index.html, the root page at index.html and a folder page at its folder', () => {
  assert.equal(pageOutputPath('index'), 'index.html')
  assert.equal(pageOutputPath('guide/setup'), 'guide/setup/index.html')
  // As on the format's hosted platform: guide/index.mdx is the page at /guide/.
  assert.equal(pageOutputPath('guide/index'), 'guide/index.html')
  assert.equal(markdownOutputPath('guide/index'), 'guide.md')
  assert.equal(rootPrefix('guide/index'), '../')
  assert.equal(pageHref('guide/setup', 'guide/index'), '../../guide/')
  assert.equal(pageHref('guide/index', 'guide/setup'), '../guide/setup/')
})

test('links between pages are relative to the page, whatever its depth', () => {
  assert.equal(rootPrefix('index'), '')
  assert.equal(rootPrefix('guide/setup'), '../../')
  assert.equal(pageHref('guide/setup', 'quickstart'), '../../quickstart/')
  assert.equal(pageHref('guide/setup', 'index'), '../../')
  assert.equal(pageHref('index', 'index'), './')
  assert.equal(pageHref('index', 'api/overview'), 'api/overview/')
  assert.equal(siteHref('guide/setup', '_assets/site.abc.css'), '../../_assets/site.abc.css')
})

test('docs.json links: external ones unchanged, site paths made relative, anchors kept', () => {
  assert.equal(configHref('guide/setup', 'https://example.com/x'), 'https://example.com/x')
  assert.equal(configHref('guide/setup', 'mailto:team@example.com'), 'mailto:team@example.com')
  assert.equal(configHref('guide/setup', '#top'), '#top')
  assert.equal(configHref('guide/setup', '/api/overview'), '../../api/overview/')
  assert.equal(configHref('guide/setup', '/api/overview#auth'), '../../api/overview/#auth')
  assert.equal(configHref('guide/setup', '/changelog.mdx'), '../../changelog/')
  assert.equal(configHref('guide/setup', '/files/spec.pdf'), '../../files/spec.pdf')
  assert.equal(configHref('guide/setup', '/'), '../../')
  assert.equal(configHref('index', '/'), './')
})

test('the shell never writes a script URL it is handed, however it is spelled', () => {
  for (const href of [
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,x',
  ])
    assert.equal(configHref('guide/setup', href), '#', JSON.stringify(href))
  assert.equal(configHref('guide/setup', 'vscode:extension/x'), 'vscode:extension/x')
})
