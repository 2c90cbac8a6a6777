/**
 * Hostile pages, built by a real `docs-server` while other projects' pages are read from it: 100k nested
 * lists and blockquotes, a big page (256 KB short, 50 MB long), a snippet that includes itself and two that
 * include each other, docs.json `$ref` cycles and a long chain, OpenAPI `$ref` cycles and a long chain, a
 * code component that loops forever and one that allocates forever. Each build ends in bounded time
 * (the page deadline counts CPU time, the build's wall time), live with a diagnostic or failed with a
 * reason, except what a valid site may hold (see `mayBuild`), which may also just build; meanwhile client loops read another project's
 * pages and their p99 must stay under 50 ms (the builds run in worker threads, never on the thread that
 * serves).
 */
import { http } from '../e2e/replicas.js'
import { versionSite } from './load.js'
import { createProject, pushSite } from './push.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite } from './suite.js'

const encode = (text: string) => new TextEncoder().encode(text)
const MB = 1024 * 1024
/** The server's limits here: a page's deadline, and the whole build's. */
const pageTimeoutSeconds = 10
const buildTimeoutSeconds = { short: 90, long: 300 }
const p99BoundMs = 50

const page = (body: string, title = 'Hostile') => `---\ntitle: ${title}\n---\n\n${body}\n`

function site(
  pages: Record<string, string>,
  docs: Record<string, unknown> = {},
  extra: Record<string, string> = {},
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  files.set(
    'docs.json',
    encode(JSON.stringify({ name: 'Hostile', navigation: { pages: Object.keys(pages) }, ...docs })),
  )
  for (const [slug, text] of Object.entries(pages)) files.set(`${slug}.mdx`, encode(text))
  for (const [path, text] of Object.entries(extra)) files.set(path, encode(text))
  return files
}

function refChain(length: number, cycle: boolean): Record<string, string> {
  const files: Record<string, string> = {}
  for (let link = 0; link < length; link++) {
    const next = link + 1 < length ? `nav/tab-${link + 1}.json` : cycle ? 'nav/tab-0.json' : undefined
    files[`nav/tab-${link}.json`] = JSON.stringify(
      next ? { $ref: next.replace('nav/', '') } : { tab: 'End', pages: ['index'] },
    )
  }
  return files
}

function openApi(schemas: Record<string, unknown>): string {
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Hostile', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: {
            '200': {
              description: 'things',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } },
            },
          },
        },
      },
    },
    components: { schemas },
  })
}

/** The hostile sites of a setting, by name. */
function hostileSites(long: boolean): Record<string, Map<string, Uint8Array>> {
  const depth = 100_000
  const bigBytes = long ? 50 * MB : 256 * 1024
  const paragraph = 'A long page with **bold**, `code` and a [link](/index) in every paragraph.\n\n'
  const chainLength = long ? 2_000 : 200
  const chainSchemas: Record<string, unknown> = {}
  for (let link = 0; link < chainLength; link++)
    chainSchemas[`S${link}`] =
      link + 1 < chainLength ? { $ref: `#/components/schemas/S${link + 1}` } : { type: 'string' }
  return {
    // `- - - … item` opens a list inside a list on one line: 100k deep in 200 KB.
    'nested lists': site({ index: page(`${'- '.repeat(depth)}deep\n`) }),
    'nested blockquotes': site({ index: page(`${'> '.repeat(depth)}deep\n`) }),
    [bigBytes >= MB ? `${bigBytes / MB} MB page` : `${bigBytes / 1024} KB page`]: site({
      index: page(paragraph.repeat(Math.ceil(bigBytes / paragraph.length))),
    }),
    'snippet including itself': site(
      { index: page('<Snippet file="loop.mdx" />') },
      {},
      { 'snippets/loop.mdx': 'Again:\n\n<Snippet file="loop.mdx" />\n' },
    ),
    'snippets including each other': site(
      { index: page('<Snippet file="a.mdx" />') },
      {},
      {
        'snippets/a.mdx': 'A:\n\n<Snippet file="b.mdx" />\n',
        'snippets/b.mdx': 'B:\n\n<Snippet file="a.mdx" />\n',
      },
    ),
    'docs.json $ref cycle': site(
      { index: page('Home.') },
      { navigation: { tabs: [{ $ref: 'nav/tab-0.json' }] } },
      refChain(3, true),
    ),
    [`docs.json $ref chain of ${chainLength}`]: site(
      { index: page('Home.') },
      { navigation: { tabs: [{ $ref: 'nav/tab-0.json' }] } },
      refChain(chainLength, false),
    ),
    'OpenAPI $ref cycle': site(
      { index: page('Home.') },
      { api: { openapi: 'openapi.json' } },
      {
        'openapi.json': openApi({
          S0: { $ref: '#/components/schemas/S1' },
          S1: { $ref: '#/components/schemas/S0' },
        }),
      },
    ),
    [`OpenAPI $ref chain of ${chainLength}`]: site(
      { index: page('Home.') },
      { api: { openapi: 'openapi.json' } },
      { 'openapi.json': openApi(chainSchemas) },
    ),
    'code component looping forever': site({
      index: page('export const Spin = () => {\n  for (;;) {}\n}\n\nBefore.\n\n<Spin />\n\nAfter.'),
    }),
    'code component allocating forever': site({
      index: page(
        'export const Hog = () => {\n  const all = []\n  for (;;) all.push(new Array(100000).fill("x"))\n}\n\nBefore.\n\n<Hog />\n\nAfter.',
      ),
    }),
  }
}

/**
 * What a valid site may hold, only big: a long page, a long `$ref` chain, a recursive OpenAPI schema (the
 * reference pages print "Circular" where it repeats). They must end in bounded time, built or not; the
 * rest must end with a diagnostic.
 */
const mayBuild = (name: string) => /MB page|KB page|chain of|OpenAPI \$ref cycle/.test(name)

const percentile = (sorted: readonly number[], fraction: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!

export const hostilePages: Suite = {
  name: 'hostile pages (server builds)',
  async run({ setting, say }) {
    const cases = new Cases()
    const long = setting === 'long'
    const figures: Record<string, string | number> = {}
    // Bounded time: a build that has not ended a page by its deadline, or itself by its own, is failed.
    const boundSeconds = buildTimeoutSeconds[setting] + 30
    const server = await ServerProcess.create('hostile-pages', [
      ...['--max-file-bytes', String(64 * MB), '--max-deployment-bytes', String(128 * MB)],
      ...[
        '--page-timeout',
        String(pageTimeoutSeconds),
        '--build-timeout',
        String(buildTimeoutSeconds[setting]),
      ],
    ])
    try {
      await server.start()
      const token = await server.token('hostile-pages@example.com')
      await createProject(server, token, 'calm')
      await pushSite(server, token, 'calm', versionSite(1, 10))
      const calmPaths = ['/', ...Array.from({ length: 9 }, (_, index) => `/page-${index + 1}/`)]

      // Readers of the calm project, for the whole time the hostile builds run.
      const latencies: number[] = []
      const readErrors: string[] = []
      let reading = true
      const reader = async (offset: number) => {
        for (let turn = offset; reading; turn++) {
          const path = calmPaths[turn % calmPaths.length]!
          const started = performance.now()
          const answer = await http(server.port, 'GET', path, {
            host: `calm.${server.baseDomain}`,
          }).catch((error: Error) => error)
          latencies.push(performance.now() - started)
          if (answer instanceof Error || answer.status !== 200)
            readErrors.push(`${path}: ${answer instanceof Error ? answer.message : answer.status}`)
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
      // The same reads with no build running first: what this machine gives, to read the figure against.
      let readers = Promise.all([0, 3, 6, 9].map(reader))
      await new Promise((resolve) => setTimeout(resolve, 3000))
      reading = false
      await readers
      const baseline = [...latencies].sort((left, right) => left - right)
      latencies.length = 0
      reading = true
      readers = Promise.all([0, 3, 6, 9].map(reader))

      const sites = hostileSites(long)
      const outcomes: string[] = []
      for (const [name, files] of Object.entries(sites)) {
        const slug = `hostile-${outcomes.length}`
        const liveOutcome = async (id: string) => {
          const read = await server.api('GET', `/projects/slug/${slug}/deployments/${id}`, token)
          const deployment = read.json<{ diagnosticCount?: number; diagnostics?: { message: string }[] }>()
          const counted = deployment.diagnosticCount ?? 0
          return counted > 0
            ? `live, ${counted} diagnostics (${deployment.diagnostics?.[0]?.message.slice(0, 100)})`
            : 'live, no diagnostic'
        }
        await createProject(server, token, slug)
        const started = performance.now()
        let outcome: string
        try {
          outcome = await liveOutcome(await pushSite(server, token, slug, files))
        } catch (error) {
          let message = (error as Error).message
          // Still building after finalize's 60 s: wait for the end, as `docsctl push` does.
          const id = /^finalize: 202 .*?"id":"([^"]+)"/.exec(message)?.[1]
          while (id && performance.now() - started < (boundSeconds + 60) * 1000) {
            await new Promise((resolve) => setTimeout(resolve, 1000))
            const read = await server.api('GET', `/projects/slug/${slug}/deployments/${id}`, token)
            const state = read.json<{ status?: string; error?: string }>()
            if (state.status === 'building' || state.status === 'uploading') continue
            message = state.status === 'ready' ? await liveOutcome(id) : `finalize: 422 ${read.text()}`
            break
          }
          outcome = message.startsWith('live')
            ? message
            : /^finalize: 422 /.test(message)
              ? `failed: ${(/"error":"([^"]{0,120})/.exec(message)?.[1] ?? message).slice(0, 120)}`
              : `refused: ${message.slice(0, 160)}`
        }
        const seconds = (performance.now() - started) / 1000
        cases.check(
          mayBuild(name)
            ? !outcome.startsWith('refused')
            : outcome.startsWith('failed') || /^live, \d+ diagnostics/.test(outcome),
          () => `${name}: ${mayBuild(name) ? 'refused' : 'no diagnostic'} (${outcome})`,
        )
        cases.check(
          seconds <= boundSeconds,
          () => `${name}: took ${seconds.toFixed(1)} s (bound ${boundSeconds} s)`,
        )
        outcomes.push(`${name} ${seconds.toFixed(1)} s`)
        say(`hostile pages: ${name}: ${outcome} in ${seconds.toFixed(1)} s`)
      }
      reading = false
      await readers
      const sorted = [...latencies].sort((left, right) => left - right)
      const p50 = percentile(sorted, 0.5)
      const p99 = percentile(sorted, 0.99)
      cases.check(
        readErrors.length === 0,
        () => `calm reads: ${readErrors.length} failed, first ${readErrors[0]}`,
      )
      cases.check(
        p99 < p99BoundMs,
        () => `calm reads during the hostile builds: p99 ${p99.toFixed(1)} ms, over ${p99BoundMs} ms`,
      )
      cases.check(server.running && server.starts === 1, () => 'the server exited during the hostile builds')
      figures['other project read, no build'] =
        `${baseline.length} reads, p50 ${percentile(baseline, 0.5).toFixed(1)} ms, p99 ${percentile(baseline, 0.99).toFixed(1)} ms`
      figures['other project read during builds'] =
        `${sorted.length} reads, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (bound ${p99BoundMs})`
      figures['longest hostile build'] =
        `${Math.max(...outcomes.map((line) => Number(/([\d.]+) s$/.exec(line)?.[1] ?? 0))).toFixed(1)} s (bound ${boundSeconds} s)`
      figures['hostile sites'] = outcomes.length
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).stack ?? String(error)}`)
    } finally {
      await server.dispose()
    }
    return cases.report(figures)
  },
}
