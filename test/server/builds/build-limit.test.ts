/**
 * A build is bounded as a whole. The review saw 35 pages that each ran out their page limit hold the only
 * build worker for 893 s under a 600 s limit: the limit was `AbortSignal.timeout` inside
 * `AbortSignal.any`, which garbage collection may drop before it fires, and the pages of a stopped build
 * went on rendering ahead of everyone else's.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { FastifyInstance } from 'fastify'
import { bearer, createProject, deploy, signIn, testApp } from '../helper.js'

const encode = (value: string) => new TextEncoder().encode(value)
const page = (title: string, body: string) => encode(`---\ntitle: ${title}\n---\n\n${body}\n`)

// Garbage collection on demand: a busy server collects while builds run.
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

/** A home page and 20 pages that each render for longer than a 1 s page limit (see limits.test.ts). */
/** Slow pages in slowSite, besides its home page. */
const slowPages = 5

function slowSite(): Map<string, Uint8Array> {
  const slugs = Array.from({ length: slowPages }, (_, index) => `slow-${index}`)
  return new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Slow', navigation: { pages: ['index', ...slugs] } }))],
    ['index.mdx', page('Home', 'Home.')],
    ...slugs.map((slug): [string, Uint8Array] => [
      `${slug}.mdx`,
      // Seconds of rendering on any machine we run on, so each slow page runs out its 1 s page limit:
      // at 9,000 elements one rendered within it on a fast machine, and none was named. Three blocks,
      // each under the 256 KB a block may hold; five such pages fit one 4 MB upload batch.
      page(slug, Array.from({ length: 3 }, () => '<i onclick="x()">i</i> '.repeat(10_000)).join('\n\n')),
    ]),
  ])
}

const onePage = () =>
  new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Next', navigation: { pages: ['index'] } }))],
    ['index.mdx', page('Next', 'Next.')],
  ])

type FailedBuild = {
  error: string
  deployment: {
    live: boolean
    diagnostics: { rule: string; file: string; message: string }[]
  }
}

/** Resolves once `condition` holds, looking every 20 ms; fails after `ms`. */
async function until(condition: () => boolean, ms = 60_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('the build limit fires while garbage is collected, and the build fails with the reason', async (t) => {
  const app = await testApp(t, 'sqlite', { buildTimeoutSeconds: 2, pageTimeoutSeconds: 1 })
  const token = await signIn(app)
  await createProject(app, token, 'slow')
  // Five pages of seconds each: without the limit this build runs for 5 s or more, past its 2 s limit.
  const collecting = setInterval(collectGarbage, 1000)
  t.after(() => clearInterval(collecting))
  const started = performance.now()
  const slow = await deploy(app, token, 'slow', slowSite(), { waitSeconds: 60 })
  clearInterval(collecting)
  t.diagnostic(`a build with a 2 s limit ended after ${((performance.now() - started) / 1000).toFixed(2)} s`)
  assert.equal(slow.finalized.statusCode, 422, slow.finalized.body.slice(0, 1000))
  const { error, deployment } = slow.finalized.json() as FailedBuild
  assert.equal(error, 'The build ran longer than the 2 s build limit')
  assert.equal(deployment.live, false)
  assert.equal(deployment.diagnostics[0]?.rule, 'build-limit')
  assert.match(
    deployment.diagnostics[0]?.message ?? '',
    /^The build stopped: it ran longer than the 2 s build limit/,
  )
})

test('a build stopped at its limit stops its pages too, names the slow ones, and the queue moves on', async (t) => {
  const app: FastifyInstance = await testApp(t, 'sqlite', { buildTimeoutSeconds: 600, pageTimeoutSeconds: 1 })
  // The deadline is the test's to fire: once every page of the build is queued or rendering.
  let expire: (() => void) | undefined
  app.builds.startDeadline = (_ms, onExpiry) => {
    expire = onExpiry
    return { cancel: () => {} }
  }
  const hostile = await signIn(app, 'hostile@example.com')
  await createProject(app, hostile, 'slow')
  const finalizing = deploy(app, hostile, 'slow', slowSite(), { waitSeconds: 60 })
  await until(() => app.builds.pagesInFlight > 0)
  // Let the home page render and the first slow page run out its page limit, so the failure names it.
  await until(() => app.builds.pagesInFlight <= slowPages - 1)
  expire?.()
  const slow = await finalizing
  assert.equal(slow.finalized.statusCode, 422, slow.finalized.body.slice(0, 1000))
  // Nothing of that build is left in the pool once it has failed.
  assert.equal(app.builds.pagesInFlight, 0)
  assert.equal(app.builds.runningCount, 0)
  const { deployment } = slow.finalized.json() as FailedBuild
  const [reason, ...pages] = deployment.diagnostics
  assert.equal(reason?.rule, 'build-limit')
  const rendered = reason?.message.match(
    new RegExp(
      `^The build stopped: it ran longer than the 600 s build limit; (\\d+) of its ${slowPages + 1} pages rendered in time$`,
    ),
  )
  assert.ok(rendered, reason?.message)
  assert.ok(
    pages.length >= 1 && pages.length + Number(rendered[1]) <= 3,
    JSON.stringify(deployment.diagnostics),
  )
  for (const over of pages) {
    assert.equal(over.rule, 'page-limit')
    assert.match(over.file, /^slow-\d+\.mdx$/)
  }

  const other = await signIn(app, 'other@example.com')
  await createProject(app, other, 'next')
  const started = performance.now()
  const next = await deploy(app, other, 'next', onePage())
  t.diagnostic(`the next push went live in ${((performance.now() - started) / 1000).toFixed(2)} s`)
  assert.equal(next.finalized.statusCode, 200, next.finalized.body)
  const read = await app.inject({
    url: `/projects/slug/slow/deployments/${slow.id}`,
    headers: bearer(hostile),
  })
  assert.equal(read.json().status, 'failed')
})
