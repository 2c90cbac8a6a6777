import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Ajv, type ValidateFunction } from 'ajv'
import { compiledFrom } from '../../../compiler/compiled-validators.js'
import {
  compiledFrontMatterPath,
  frontMatterSchemaText,
  frontMatterValidatorOptions,
  readFrontMatter,
} from '../../../compiler/content/frontmatter.js'

test('reads every spec field and the body after the block', () => {
  const page = [
    '---',
    'title: Setup',
    'description: Install the CLI',
    'sidebarTitle: Install',
    'icon: rocket',
    'iconType: solid',
    'mode: wide',
    'hidden: true',
    'deprecated: true',
    'noindex: true',
    'keywords: [install, cli]',
    'tag: NEW',
    'url: https://example.com',
    'hideApiMarker: true',
    'hideFooterPagination: true',
    '---',
    '# Hello',
  ].join('\n')
  const result = readFrontMatter(page, 'guide/setup.mdx', 'strict')
  assert.deepEqual(result.diagnostics, [])
  assert.deepEqual(result.data, {
    title: 'Setup',
    description: 'Install the CLI',
    sidebarTitle: 'Install',
    icon: 'rocket',
    iconType: 'solid',
    mode: 'wide',
    hidden: true,
    deprecated: true,
    noindex: true,
    keywords: ['install', 'cli'],
    tag: 'NEW',
    url: 'https://example.com',
    hideApiMarker: true,
    hideFooterPagination: true,
  })
  assert.equal(result.body, '# Hello')
  assert.equal(result.bodyLine, 17)
})

test('strict mode rejects an unknown key with its place and a likely fix', () => {
  const result = readFrontMatter('---\ntitle: A\ndescripton: B\n---\n', 'a.mdx', 'strict')
  assert.deepEqual(result.diagnostics, [
    {
      severity: 'error',
      file: 'a.mdx',
      line: 3,
      column: 1,
      path: 'descripton',
      rule: 'unknown-key',
      message: 'Unknown front matter key "descripton"; did you mean "description"?',
    },
  ])
})

test('lenient mode drops unknown keys and invalid values with warnings and keeps the rest', () => {
  const result = readFrontMatter('---\ntitle: A\nowner: team-a\nmode: wde\n---\n', 'a.mdx', 'lenient')
  assert.deepEqual(result.data, { title: 'A' })
  assert.deepEqual(
    result.diagnostics.map((d) => [d.severity, d.rule, d.line, d.column, d.message]),
    [
      ['warning', 'unknown-key', 3, 1, 'Unknown front matter key "owner" ignored'],
      [
        'warning',
        'invalid-value',
        4,
        7,
        'Unexpected "wde" for "mode", expected one of "default", "wide", "custom", "frame", "center"; the key is ignored',
      ],
    ],
  )
})

test("the format's API and social metadata keys are read; an unknown key of the author's own is a strict warning", () => {
  const text =
    '---\ntitle: A\nopenapi: openapi.json GET /x\napi: POST /y\nog:title: Shared\ntwitter:card: summary\nreviewedBy: docs\n---\n'
  const result = readFrontMatter(text, 'a.mdx', 'strict')
  assert.deepEqual(result.data, { title: 'A', openapi: 'openapi.json GET /x', api: 'POST /y' })
  assert.deepEqual(
    result.diagnostics.map((d) => [d.severity, d.rule, d.line, d.message]),
    [
      [
        'warning',
        'unknown-key',
        7,
        'Unknown front matter key "reviewedBy" is not used by this site; remove it or ignore this warning',
      ],
    ],
  )
})

test('a missing title, a missing block and broken YAML are reported at their place', () => {
  const noTitle = readFrontMatter('---\ndescription: x\n---\nbody', 'a.mdx', 'strict')
  assert.equal(noTitle.data, undefined)
  assert.deepEqual(noTitle.partial, { description: 'x' })
  assert.equal(noTitle.body, 'body')
  assert.equal(noTitle.diagnostics[0]?.rule, 'missing-title')

  const noBlock = readFrontMatter('# Just text\n', 'b.mdx', 'lenient')
  assert.equal(noBlock.data, undefined)
  assert.equal(noBlock.body, '# Just text\n')
  assert.equal(noBlock.bodyLine, 1)
  assert.deepEqual(
    noBlock.diagnostics.map((d) => [d.severity, d.rule]),
    [['warning', 'missing-front-matter']],
  )

  const broken = readFrontMatter('---\ntitle: Setup: the CLI\n---\n', 'c.mdx', 'strict')
  assert.equal(broken.data, undefined)
  assert.equal(broken.diagnostics[0]?.rule, 'front-matter-yaml')
  assert.equal(broken.diagnostics[0]?.severity, 'error')
  assert.equal(broken.diagnostics[0]?.line, 2)
})

test('an empty block and Windows line endings are read', () => {
  const empty = readFrontMatter('---\n---\ntext', 'a.mdx', 'lenient')
  assert.equal(empty.body, 'text')
  assert.equal(empty.bodyLine, 3)
  const crlf = readFrontMatter('---\r\ntitle: Hi\r\n---\r\nbody', 'a.mdx', 'strict')
  assert.deepEqual(crlf.data, { title: 'Hi' })
  assert.equal(crlf.body, 'body')
})

test('a number where a string is expected is read as the string its author wrote', () => {
  const result = readFrontMatter('---\ntitle: 2024\ntag: 1.0\n---\n', 'a.mdx', 'strict')
  assert.deepEqual(result.data, { title: '2024', tag: '1.0' })
  assert.deepEqual(result.diagnostics, [])
})

test('the front matter validators compiled at build judge every key as ones compiled at run time', () => {
  const text = frontMatterSchemaText()
  const built = compiledFrom<Record<string, ValidateFunction>>(compiledFrontMatterPath, text)
  assert.ok(built, `npm run build wrote ${compiledFrontMatterPath} from the current schema`)
  const ajv = new Ajv(frontMatterValidatorOptions)
  const values = ['', 'Title', 7, 0, true, null, [], ['a', 'b'], [1], { a: 1 }, 'wide', 'https://x.dev/a']
  for (const [key, property] of Object.entries(
    (JSON.parse(text) as { properties: Record<string, object> }).properties,
  )) {
    const fresh = ajv.compile(property)
    const compiled: ValidateFunction | undefined = built[key]
    assert.ok(compiled, key)
    for (const value of values) {
      assert.equal(compiled(value), fresh(value), `${key}: ${JSON.stringify(value)}`)
      assert.deepEqual(compiled.errors ?? null, fresh.errors ?? null, `${key}: ${JSON.stringify(value)}`)
    }
  }
})
