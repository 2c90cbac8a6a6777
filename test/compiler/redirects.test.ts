/**
 * The redirect matcher shared by docs-server, `docsctl dev` and the link checker; the `_redirects`
 * file round trip; loops refused by `validateSite` with the cycle printed.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfigWithSource } from '../../compiler/config/index.js'
import { formatDiagnostic } from '../../compiler/diagnostics.js'
import {
  createRedirectMatcher,
  findRedirectCycles,
  parseRedirectsFile,
  redirectRules,
  renderRedirectsFile,
} from '../../compiler/redirects.js'
import { validateSite } from '../../compiler/validate-site.js'

const encoder = new TextEncoder()

test('sources match exactly, by :param, :param* and *, and keep the query', () => {
  const matcher = createRedirectMatcher(
    redirectRules([
      { source: 'old/', destination: '/new' },
      { source: '/a/:id/b', destination: '/c/:id', permanent: false },
      { source: '/v1/:path*', destination: '/v2/:path*' },
      { source: '/ext/*', destination: 'https://example.com/docs/*' },
      { source: '/self', destination: '/self/' },
      { destination: '/no-source' },
      'not a rule',
    ]),
  )
  assert.deepEqual(matcher.match('/old/'), { location: '/new', status: 308 })
  assert.deepEqual(matcher.match('/old', '?q=1'), { location: '/new?q=1', status: 308 })
  assert.deepEqual(matcher.match('/a/7/b'), { location: '/c/7', status: 307 })
  assert.equal(matcher.match('/a/7/b/c'), undefined)
  assert.deepEqual(matcher.match('/v1/guide/setup'), { location: '/v2/guide/setup', status: 308 })
  assert.deepEqual(matcher.match('/v1'), { location: '/v2/', status: 308 })
  assert.deepEqual(matcher.match('/ext/a b'), { location: 'https://example.com/docs/a%20b', status: 308 })
  // A rule that points at the path itself would loop: it does not apply.
  assert.equal(matcher.match('/self'), undefined)
  assert.equal(matcher.match('/elsewhere'), undefined)
})

test("_redirects round-trips the rules, writing :param* at the end as the hosts' * and :splat", () => {
  const rules = redirectRules([
    { source: '/old', destination: '/new' },
    { source: '/v1/:slug*', destination: '/v2/:slug*', permanent: false },
  ])
  const file = renderRedirectsFile(rules)
  assert.equal(file, '/old /new 308!\n/v1/* /v2/:splat 307!\n')
  const read = createRedirectMatcher(parseRedirectsFile(`# comment\n${file}/bad\n`))
  assert.deepEqual(read.match('/v1/x/y'), { location: '/v2/x/y', status: 307 })
  assert.deepEqual(read.match('/old'), { location: '/new', status: 308 })
})

test('redirect loops are found through simple and pattern rules, each once', () => {
  const cycles = findRedirectCycles(
    redirectRules([
      { source: '/a', destination: '/b' },
      { source: '/b', destination: '/old/c' },
      { source: '/old/:x', destination: '/a' },
      { source: '/fine', destination: '/a-page' },
    ]),
  )
  assert.deepEqual(cycles, [['/a', '/b', '/old/c', '/a']])
})

test('validate refuses a redirect loop and prints the cycle', () => {
  const docs = JSON.stringify(
    {
      name: 'Loops',
      navigation: { pages: ['index'] },
      redirects: [
        { source: '/a', destination: '/b' },
        { source: '/b', destination: '/a/' },
      ],
    },
    null,
    2,
  )
  const files = new Map([
    ['docs.json', encoder.encode(docs)],
    ['index.mdx', encoder.encode('---\ntitle: Home\n---\n')],
  ])
  const { diagnostics } = validateSite(files, { mode: 'strict' })
  assert.deepEqual(diagnostics.map(formatDiagnostic), [
    'docs.json:9:5 redirects[0]: redirects loop: /a → /b → /a; change the destination of one of them to a page',
  ])
})

test('lenient: a bad redirect is left out with a warning, the others still apply', () => {
  const docs = {
    name: 'A',
    navigation: { pages: ['index'] },
    redirects: [
      { source: '/a', destination: '/b' },
      { source: '/c' },
      { source: 'd', destination: '/e', extra: 1 },
    ],
  }
  const loaded = loadConfigWithSource(new Map([['docs.json', encoder.encode(JSON.stringify(docs))]]), {
    mode: 'lenient',
  })
  assert.deepEqual(
    loaded.diagnostics.map(
      (diagnostic) => `${diagnostic.severity} ${diagnostic.path}: ${diagnostic.message}`,
    ),
    [
      'warning redirects[1]: missing required key "destination"; ignored',
      'warning redirects[2]: unknown key "extra" ignored',
    ],
  )
  const matcher = createRedirectMatcher(redirectRules(loaded.data?.redirects))
  assert.equal(matcher.match('/a')?.location, '/b')
  assert.equal(matcher.match('/c'), undefined)
  assert.equal(matcher.match('/d')?.location, '/e')
})
