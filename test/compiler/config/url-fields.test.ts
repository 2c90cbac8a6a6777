import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { loadConfig } from '../../../compiler/config/index.js'
import { formatDiagnostic } from '../../../compiler/diagnostics.js'

const encoder = new TextEncoder()

/** A docs.json with a script or data URL in every field that takes a URL (the browser test runs it too). */
const fixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'script-injection', 'docs.json')
const files = () => new Map([['docs.json', new Uint8Array(readFileSync(fixture))]])

for (const mode of ['lenient', 'strict'] as const) {
  test(`docs.json script and data URLs are refused at their line and left out (${mode})`, () => {
    const { config, navigation, diagnostics } = loadConfig(files(), { mode })
    const refused = diagnostics.filter((diagnostic) => diagnostic.rule === 'unsafe-url')
    assert.deepEqual(
      refused.map((diagnostic) => `${diagnostic.severity} ${formatDiagnostic(diagnostic)}`),
      [
        'docs.json:3:78 logo.href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:4:14 favicon: Unexpected data: URL that is not an image, expected an http(s) URL or a site path; it is left out',
        'docs.json:7:34 navbar.links[0].href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:10:44 navbar.primary.href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:12:66 contextual.options[1].href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:13:38 seo.metatags["og:image"]: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:17:37 navigation.global.anchors[0].href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
        'docs.json:23:32 navigation.tabs[1].href: Unexpected script URL, expected an http(s) URL or a site path; it is left out',
      ].map((line) => `${mode === 'strict' ? 'error' : 'warning'} ${line}`),
    )
    assert.ok(config && navigation)
    const everything = JSON.stringify({ config, navigation })
    assert.doesNotMatch(everything, /script:|data:/i)
    assert.equal(config.logo && typeof config.logo === 'object' ? config.logo.href : 'none', undefined)
    assert.equal(config.favicon, undefined)
    assert.deepEqual(config.navbar?.links, [{ label: 'Good', href: 'https://example.com' }])
    assert.equal(config.navbar?.primary, undefined)
    assert.deepEqual(config.contextual?.options, ['copy'])
    assert.deepEqual(config.seo?.metatags, {})
    assert.deepEqual(
      navigation.global.anchors.map((anchor) => anchor.href),
      ['https://example.com/blog'],
    )
    // The Evil tab was only a link: without its target nothing is left to draw.
    assert.deepEqual(
      navigation.tabs.map((tab) => [tab.label, tab.href]),
      [['Guides', undefined]],
    )
  })
}

test('image data URLs stay where a docs.json field is an image', () => {
  const docs =
    '{"name":"A","favicon":"data:image/png;base64,AA","logo":"data:image/png;base64,AA","navigation":{"pages":["index"]}}'
  const { config, diagnostics } = loadConfig(new Map([['docs.json', encoder.encode(docs)]]), {
    mode: 'strict',
  })
  assert.deepEqual(diagnostics, [])
  assert.equal(config?.favicon, 'data:image/png;base64,AA')
})

test('a navigation section keeps its pages without its refused link, a redirect goes whole', () => {
  const docs = JSON.stringify({
    name: 'A',
    navigation: {
      anchors: [
        { anchor: 'SDK', href: 'javascript:alert(1)', pages: ['sdk'] },
        { anchor: 'Guides', pages: ['index'] },
      ],
    },
    redirects: [
      { source: '/old', destination: 'javascript:alert(2)' },
      { source: '/moved', destination: '/index' },
    ],
  })
  const { config, navigation, diagnostics } = loadConfig(new Map([['docs.json', encoder.encode(docs)]]), {
    mode: 'lenient',
  })
  assert.deepEqual(
    diagnostics.filter((diagnostic) => diagnostic.rule === 'unsafe-url').map((diagnostic) => diagnostic.path),
    ['navigation.anchors[0].href', 'redirects[0].destination'],
  )
  assert.ok(navigation)
  assert.deepEqual(
    navigation.tabs.map((tab) => [tab.label, tab.href, JSON.stringify(tab.items).includes('"sdk"')]),
    [
      ['SDK', undefined, true],
      ['Guides', undefined, false],
    ],
  )
  assert.deepEqual(config?.redirects, [{ source: '/moved', destination: '/index' }])
})
