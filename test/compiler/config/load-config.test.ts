import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { loadConfig } from '../../../compiler/config/index.js'
import { mapLegacyConfig } from '../../../compiler/config/legacy.js'
import { type Diagnostic, formatDiagnostic } from '../../../compiler/diagnostics.js'
import { readSiteFiles } from '../../../lib/site-dir.js'

const encoder = new TextEncoder()
const site = (docs: string | Uint8Array, extra: Record<string, string> = {}) =>
  new Map<string, Uint8Array>([
    ['docs.json', typeof docs === 'string' ? encoder.encode(docs) : docs],
    ...Object.entries(extra).map(([path, text]) => [path, encoder.encode(text)] as [string, Uint8Array]),
  ])
const lines = (diagnostics: Diagnostic[]) => diagnostics.map(formatDiagnostic)

test('the issue example: an unknown key names line, column, path and the likely fix', () => {
  const docs = `{
  "name": "Acme",
  "navigation": {
    "tabs": [
      {
        "tab": "Guides",
        "pages": ["index"]
      },
      {
        "tab": "More",
        "groups": [],
        "icon": "book",
        "href": "https://example.com",
        "grups": []
      }
    ]
  }
}`
  const { diagnostics } = loadConfig(site(docs), { mode: 'strict' })
  assert.deepEqual(lines(diagnostics), [
    'docs.json:14:9 navigation.tabs[1]: unknown key "grups"; did you mean "groups"?',
  ])
  assert.equal(diagnostics[0]?.rule, 'unknown-key')
})

test('the full fixture normalises into tabs, groups, hidden pages and links', async () => {
  const { files } = await readSiteFiles(fromPackageRoot('fixtures', 'sites', 'full'))
  const { config, navigation, diagnostics } = loadConfig(files, { mode: 'strict' })
  assert.deepEqual(diagnostics, [])
  assert.equal(config?.name, 'Acme Docs')
  assert.ok(navigation)
  assert.deepEqual(
    navigation.tabs.map((tab) => [tab.label, tab.href ?? null, tab.items.length]),
    [
      ['Guides', null, 4],
      ['API Reference', null, 1],
      ['Blog', 'https://acme.example.com/blog', 0],
    ],
  )
  const [start, concepts, internals] = navigation.tabs[0]?.items ?? []
  assert.deepEqual(
    [start, concepts, internals].map(
      (item) => item?.kind === 'group' && [item.label, item.expanded, item.hidden],
    ),
    [
      ['Getting Started', true, false],
      ['Concepts', true, false],
      ['Internals', false, true],
    ],
  )
  assert.deepEqual(navigation.pages, [
    { slug: 'index', tab: 0, groups: ['Getting Started'], hidden: false },
    { slug: 'quickstart', tab: 0, groups: ['Getting Started'], hidden: false },
    { slug: 'concepts/projects', tab: 0, groups: ['Concepts'], hidden: false },
    { slug: 'concepts/deployments', tab: 0, groups: ['Concepts'], hidden: false },
    { slug: 'concepts/internals', tab: 0, groups: ['Internals'], hidden: true },
    { slug: 'api/overview', tab: 1, groups: ['Endpoints'], hidden: false },
    { slug: 'api/projects', tab: 1, groups: ['Endpoints'], hidden: false },
    { slug: 'changelog', tab: 0, groups: [], hidden: true },
  ])
  assert.deepEqual(navigation.versions, [
    { label: 'v2', href: 'https://docs.acme.example.com' },
    { label: 'v1', href: 'https://v1.docs.acme.example.com' },
  ])
  assert.deepEqual(navigation.languages[1], {
    label: 'Deutsch',
    href: 'https://de.docs.acme.example.com',
    locale: 'de',
  })
  assert.deepEqual(navigation.global.anchors, [
    { label: 'GitHub', href: 'https://github.com/acme', icon: 'github' },
  ])
})

test('a site without tabs gets one unlabelled tab; slugs lose leading slashes and extensions', () => {
  const docs = JSON.stringify({
    name: 'Acme',
    navigation: {
      pages: ['/intro.mdx'],
      groups: [
        { group: 'A', pages: ['a'] },
        { group: 'B', pages: ['b', 'intro'] },
      ],
    },
  })
  const { navigation } = loadConfig(site(docs), { mode: 'strict' })
  assert.equal(navigation?.tabs.length, 1)
  assert.equal(navigation?.tabs[0]?.label, null)
  assert.deepEqual(
    navigation?.pages.map((page) => page.slug),
    ['intro', 'a', 'b'],
  )
  const groups = navigation?.tabs[0]?.items.filter((item) => item.kind === 'group')
  assert.deepEqual(
    groups?.map((group) => group.kind === 'group' && group.expanded),
    [true, false],
  )
})

test('lenient mode drops unknown keys with warnings and keeps the rest', () => {
  const docs = JSON.stringify({
    name: 'Acme',
    theme: 'mint',
    feedback: { thumbsRating: true, suggestEdit: true },
    appearance: { default: 'darkk' },
    navigation: { pages: ['index'] },
  })
  const { config, diagnostics } = loadConfig(site(docs), { mode: 'lenient' })
  assert.ok(diagnostics.every((diagnostic) => diagnostic.severity === 'warning'))
  assert.deepEqual(lines(diagnostics), [
    'docs.json:1:16 "theme" is not supported here: sites use the built-in theme; ignored',
    'docs.json:1:63 feedback: "suggestEdit" is a setting of the hosted platform (a link to edit the page in its repository) not implemented here; ignored',
    'docs.json:1:107 appearance.default: expected one of "system", "light", "dark", found "darkk"; did you mean "dark"?; ignored',
  ])
  assert.deepEqual(Object.keys(config ?? {}).sort(), ['appearance', 'feedback', 'name', 'navigation'])
  assert.deepEqual(config?.feedback, { thumbsRating: true })
  assert.deepEqual(config?.appearance, {})
})

test('lenient mode still fails on a navigation of the wrong shape', () => {
  const docs = JSON.stringify({ name: 'Acme', navigation: { groups: 'Start' } })
  const { diagnostics } = loadConfig(site(docs), { mode: 'lenient' })
  assert.deepEqual(
    diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.message]),
    [['error', 'expected an array, found "Start"']],
  )
})

test('anchors, dropdowns, products, menus and nested groups form one tree, valid in both modes', () => {
  const docs = JSON.stringify(
    {
      name: 'Acme',
      navigation: {
        anchors: [
          {
            anchor: 'Docs',
            icon: 'book',
            tabs: [{ tab: 'Start', groups: [{ group: 'One', pages: ['a'] }] }],
          },
          { anchor: 'Community', href: 'https://example.com' },
        ],
        products: [{ product: 'Cloud', pages: ['b'] }],
        dropdowns: [
          {
            dropdown: 'SDKs',
            tabs: [
              {
                tab: 'JS',
                menu: [{ item: 'Client', groups: [{ group: 'Deep', pages: ['c'] }], pages: ['d'] }],
              },
            ],
          },
        ],
      },
    },
    null,
    2,
  )
  for (const mode of ['strict', 'lenient'] as const) {
    const { navigation, diagnostics } = loadConfig(site(docs), { mode })
    assert.deepEqual(lines(diagnostics), [], mode)
    assert.deepEqual(
      navigation?.tabs.map((tab) =>
        tab.path.map((section) => `${section.kind}:${section.label}`).join(' > '),
      ),
      [
        'product:Cloud',
        'dropdown:SDKs > tab:JS > menu:Client',
        'anchor:Docs > tab:Start',
        'anchor:Community',
      ],
    )
    assert.equal(navigation?.tabs[3]?.href, 'https://example.com')
    assert.deepEqual(
      navigation?.pages.map((page) => [page.slug, page.tab, page.groups.join('/')]),
      [
        ['b', 0, ''],
        ['d', 1, ''],
        ['c', 1, 'Deep'],
        ['a', 2, 'One'],
      ],
    )
  }
})

test('mapLegacyConfig writes out a config in our shape', () => {
  const { config, changes } = mapLegacyConfig({
    name: 'Acme',
    anchors: [{ name: 'Blog', url: 'https://example.com/blog' }],
    navigation: { global: { anchors: [{ anchor: 'GitHub', href: 'https://github.com' }] }, groups: [] },
  })
  assert.deepEqual(config, {
    name: 'Acme',
    navigation: {
      global: {
        anchors: [
          { label: 'GitHub', href: 'https://github.com' },
          { label: 'Blog', href: 'https://example.com/blog' },
        ],
      },
      groups: [],
    },
  })
  assert.deepEqual(
    changes.map((change) => change.mapped),
    ['top-level "anchors" mapped onto navigation.global.anchors'],
  )
})

test('a tab $ref resolves relative to the referring file and reports positions in that file', () => {
  const docs = '{ "name": "Acme", "navigation": { "tabs": [{ "$ref": "nav/tab.json" }] } }'
  const tab = '{\n  "tab": "API",\n  "pages": ["index"],\n  "icn": "code"\n}'
  const { navigation, diagnostics } = loadConfig(site(docs, { 'nav/tab.json': tab }), { mode: 'strict' })
  assert.deepEqual(lines(diagnostics), [
    'nav/tab.json:4:3 navigation.tabs[0]: unknown key "icn"; did you mean "icon"?',
  ])
  assert.equal(navigation?.tabs[0]?.label, 'API')
})

test('bad input gets one clear diagnostic, never an exception', async (t) => {
  const cases: [string, string | Uint8Array, string][] = [
    ['missing docs.json', '', ''],
    ['empty file', '', 'docs.json:1:1 file is empty; expected a JSON object'],
    ['whitespace only', '  \n\n', 'docs.json:1:1 file is empty; expected a JSON object'],
    ['not JSON', 'hello', 'docs.json:1:1 file is not JSON: expected "{" to open an object, found "hello"'],
    [
      'a string',
      '"name"',
      'docs.json:1:1 file is not JSON: expected "{" to open an object, found "\\"name\\""',
    ],
    [
      'comments',
      '{\n  "name": "A", // x\n  "navigation": {"pages": ["a"]}\n}',
      'docs.json:2:16 comments are not allowed in JSON; remove the comment',
    ],
    ['unterminated', '{ "name": "A"', 'docs.json:1:14 expected "}" to close the object'],
    [
      'non-UTF-8 bytes',
      new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      'docs.json file is not valid UTF-8 (bad byte 0xff at byte 6); save it as UTF-8',
    ],
    [
      'a 5 MB file',
      `{"name": "${'x'.repeat(5 * 1024 * 1024)}"}`,
      'docs.json file is 5.0 MB; a config file may be at most 2 MB',
    ],
    [
      'deeply nested navigation',
      `{"name":"A","navigation":{"groups":[${'{"group":"g","pages":['.repeat(2000)}${']}'.repeat(2000)}]}}`,
      'docs.json:1:718 nested more than 64 levels deep here; flatten the structure',
    ],
  ]
  for (const [name, docs, expected] of cases) {
    await t.test(name, () => {
      const files = name === 'missing docs.json' ? new Map<string, Uint8Array>() : site(docs)
      const result = loadConfig(files, { mode: 'strict' })
      assert.equal(result.config, undefined)
      assert.equal(result.diagnostics[0]?.severity, 'error')
      if (expected) assert.equal(formatDiagnostic(result.diagnostics[0] as Diagnostic), expected)
      else assert.equal(result.diagnostics[0]?.rule, 'missing-config')
    })
  }
})

test('a BOM is a warning and positions still match the editor', () => {
  const bytes = encoder.encode('\uFEFF{\n  "name": "A",\n  "navigation": { "pages": ["a"] },\n  "x": 1\n}')
  const { diagnostics, config } = loadConfig(site(bytes), { mode: 'strict' })
  assert.ok(config)
  assert.deepEqual(
    diagnostics.map((diagnostic) => `${diagnostic.severity} ${formatDiagnostic(diagnostic)}`),
    [
      'warning docs.json:1:1 file starts with a byte order mark; save it as UTF-8 without BOM',
      'error docs.json:4:3 unknown key "x"; expected one of "$schema", "name", "slug", "description", "logo", "favicon", "appearance", "navbar", "navigation", "api", "contextual", "mcp", "feedback", "search", "seo", "metadata", "redirects", "banner", "footer", "integrations", "errors", "interaction", "thumbnails", "variables"',
    ],
  )
})

test('$ref escaping the root or looping is reported, not followed', () => {
  const outside = site('{ "name": "A", "navigation": { "tabs": [{ "$ref": "../../etc/passwd" }] } }')
  assert.deepEqual(lines(loadConfig(outside, { mode: 'strict' }).diagnostics), [
    'docs.json:1:51 navigation.tabs[0]: "$ref" "../../etc/passwd" points outside the docs root',
  ])
  const absolute = site('{ "name": "A", "navigation": { "tabs": [{ "$ref": "/../secret.json" }] } }')
  assert.equal(loadConfig(absolute, { mode: 'strict' }).diagnostics[0]?.rule, 'ref-outside-root')
  const loop = site('{ "name": "A", "navigation": { "tabs": [{ "$ref": "docs.json" }] } }')
  assert.deepEqual(lines(loadConfig(loop, { mode: 'lenient' }).diagnostics), [
    'docs.json:1:51 navigation.tabs[0]: "$ref" "docs.json" makes a cycle: docs.json → docs.json',
  ])
})

test('messages never expose raw schema wording', async () => {
  const { files } = await readSiteFiles(join(fromPackageRoot('fixtures', 'invalid'), 'union-types'))
  const { diagnostics } = loadConfig(files, { mode: 'strict' })
  for (const diagnostic of diagnostics)
    assert.doesNotMatch(diagnostic.message, /anyOf|oneOf|must match|schema/)
})

test('versions and languages with their own navigation become sections, not tabs or links', () => {
  const docs = JSON.stringify(
    {
      name: 'Acme',
      navigation: {
        versions: [
          { version: 'v2', groups: [{ group: 'Start', pages: ['v2/index'] }] },
          {
            version: 'v1',
            languages: [
              { language: 'en', tabs: [{ tab: 'Guides', pages: ['v1/en/index'] }] },
              { language: 'de', tabs: [{ tab: 'Anleitungen', pages: ['v1/de/index'] }] },
            ],
          },
        ],
      },
    },
    null,
    2,
  )
  for (const mode of ['strict', 'lenient'] as const) {
    const loaded = loadConfig(site(docs), { mode })
    assert.deepEqual(lines(loaded.diagnostics), [], mode)
    assert.deepEqual(loaded.navigation?.pages, [
      { slug: 'v2/index', tab: 0, groups: ['Start'], hidden: false },
      { slug: 'v1/en/index', tab: 1, groups: [], hidden: false },
      { slug: 'v1/de/index', tab: 2, groups: [], hidden: false },
    ])
    assert.deepEqual(
      loaded.navigation?.tabs.map((tab) => tab.path.map((section) => `${section.kind}:${section.label}`)),
      [
        ['version:v2'],
        ['version:v1', 'language:English', 'tab:Guides'],
        ['version:v1', 'language:Deutsch', 'tab:Anleitungen'],
      ],
    )
    // Switcher links are only for versions/languages written as { label, url }.
    assert.deepEqual(loaded.navigation?.versions, [])
    assert.deepEqual(loaded.navigation?.languages, [])
  }
})

test('lenient mode drops a bad icon, flag or link inside navigation instead of failing the site', () => {
  const docs = JSON.stringify({
    name: 'Acme',
    navigation: {
      tabs: [
        {
          tab: 'Guides',
          icon: 42,
          groups: [{ group: 'Start', expanded: 'yes', pages: ['a'] }],
        },
      ],
      global: { links: [{ label: 'Blog' }] },
    },
  })
  const { navigation, diagnostics } = loadConfig(site(docs), { mode: 'lenient' })
  assert.deepEqual(
    diagnostics.map((diagnostic) => `${diagnostic.severity} ${diagnostic.path}: ${diagnostic.message}`),
    [
      'warning navigation.tabs[0].icon: expected a string or an object, found the number 42; ignored',
      'warning navigation.tabs[0].groups[0].expanded: expected true or false, found "yes"; ignored',
      'warning navigation.global.links[0]: missing required key "href"; ignored',
    ],
  )
  assert.equal(navigation?.tabs[0]?.icon, undefined)
  assert.deepEqual(
    navigation?.pages.map((page) => page.slug),
    ['a'],
  )
  assert.deepEqual(navigation?.global.links, [])
})

test('a repeated key is a warning at the later occurrence; mint.json alone is named', () => {
  const docs = '{\n  "name": "A",\n  "navigation": { "pages": ["a"] },\n  "name": "B"\n}'
  const { config, diagnostics } = loadConfig(site(docs), { mode: 'strict' })
  assert.equal(config?.name, 'B')
  assert.deepEqual(lines(diagnostics), [
    'docs.json:4:3 key "name" appears twice in this object; the last one wins, remove the other',
  ])
  const legacy = new Map([['mint.json', encoder.encode('{}')]])
  assert.deepEqual(lines(loadConfig(legacy, { mode: 'lenient' }).diagnostics), [
    'docs.json docs.json not found, but mint.json is: this service reads docs.json; convert mint.json to docs.json',
  ])
})

test("the platform's settings we do not act on are warnings that name them, in strict mode too", () => {
  const docs = JSON.stringify({
    name: 'Acme',
    colors: { primary: '#000' },
    feedback: { thumbsRating: true, suggestEdit: true },
    contextual: { options: ['copy', 'download-spec', 'claude'] },
    navigation: { languages: [{ language: 'en', boost: 2, pages: ['index'] }] },
  })
  const { diagnostics } = loadConfig(site(docs), { mode: 'strict' })
  assert.deepEqual(
    diagnostics.map((diagnostic) => `${diagnostic.severity} ${formatDiagnostic(diagnostic)}`),
    [
      'error docs.json:1:16 "colors" is not supported here: sites use the one built-in theme, which has no such setting; remove it (`docsctl migrate` does)',
      'warning docs.json:1:76 feedback: "suggestEdit" is a setting of the hosted platform (a link to edit the page in its repository) not implemented here; ignored',
      'warning docs.json:1:128 contextual.options[1]: "download-spec" is an option of the hosted platform (a download of the OpenAPI document) not implemented here; ignored',
      'warning docs.json:1:199 navigation.languages[0]: "boost" is a setting of the hosted platform (search ranking weight) not implemented here; ignored',
    ],
  )
  assert.ok(!diagnostics.some((diagnostic) => diagnostic.message.includes('did you mean')))
  const lenient = loadConfig(site(docs), { mode: 'lenient' })
  assert.deepEqual(lenient.config?.contextual?.options, ['copy', 'claude'])
})

test('lenient: a value dropped for its type leaves no incomplete entry behind (found by the long hostile-input run)', async () => {
  const docs = JSON.stringify({
    name: 'Acme',
    navbar: {
      links: [
        { label: 'GitHub', href: [] },
        { label: 'Discord', href: 'https://discord.example' },
      ],
      primary: { type: 'button', label: 'Install', href: 'https://example.com/install' },
    },
    navigation: { pages: ['index'] },
  })
  const { config, diagnostics } = loadConfig(site(docs), { mode: 'lenient' })
  assert.deepEqual(
    diagnostics.map((diagnostic) => `${diagnostic.severity} ${diagnostic.path}: ${diagnostic.message}`),
    [
      'warning navbar.links[0]: missing required key "href"; ignored',
      'warning navbar.links[0].href: expected a string, found an array; ignored',
    ],
  )
  // What is left validates: the links went with the one that had no target, the button stayed.
  assert.equal(config?.navbar?.links, undefined)
  assert.equal(config?.navbar?.primary?.href, 'https://example.com/install')
  // And the site builds: the shell never meets a link without a target.
  const { buildSite } = await import('../../../compiler/build.js')
  const built = await buildSite(site(docs, { 'index.mdx': '---\ntitle: Home\n---\n\nA page.\n' }), {
    mode: 'lenient',
  })
  assert.ok(built.files.has('index.html'))
  const strict = loadConfig(site(docs), { mode: 'strict' })
  assert.deepEqual(
    strict.diagnostics.map((diagnostic) => `${diagnostic.severity} ${diagnostic.path}`),
    ['error navbar.links[0].href'],
  )
})
