/**
 * `npm run bench:change-report`: a 500-page site goes live, then a preview changes 3 of its pages; the
 * change report is timed from the moment the preview is live (its build done) to the report made,
 * once without screenshots and once with them (headless Chromium at /usr/bin/chromium or $CHROMIUM).
 * Prints the figures; does not assert.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../server/app.js'
import { defaultConfig } from '../server/config.js'
import { bearer, createProject, deploy, signIn } from '../test/server/helper.js'

const pages = 500
const encode = (value: string) => new TextEncoder().encode(value)

function site(changed: ReadonlySet<number>): Map<string, Uint8Array> {
  const slugs = Array.from({ length: pages }, (_, index) => `guide/page-${index}`)
  const files = new Map<string, Uint8Array>([
    [
      'docs.json',
      encode(
        JSON.stringify({
          name: 'Bench',
          navigation: {
            groups: Array.from({ length: 10 }, (_, group) => ({
              group: `Part ${group}`,
              pages: slugs.slice(group * 50, group * 50 + 50),
            })),
          },
        }),
      ),
    ],
  ])
  slugs.forEach((slug, index) => {
    const edit = changed.has(index) ? ' This paragraph was edited in the preview.' : ''
    const body = [
      `## Overview\n\nPage ${index} explains one part of the product.${edit}`,
      `## Details\n\nSee [the next page](/guide/page-${(index + 1) % pages}) and [the overview](#overview).`,
      '```ts\nconst answer = 42\n```',
      '- one\n- two\n- three',
    ].join('\n\n')
    files.set(`${slug}.mdx`, encode(`---\ntitle: Page ${index}\n---\n\n${body}\n`))
  })
  return files
}

/** Waits for a deployment's build (finalize waits at most a minute). */
async function settled(app: Awaited<ReturnType<typeof buildApp>>, token: string, id: string): Promise<void> {
  for (;;) {
    const response = await app.inject({
      url: `/projects/slug/bench/deployments/${id}`,
      headers: bearer(token),
    })
    const { status } = response.json() as { status: string }
    if (status === 'ready') return
    if (status === 'failed') throw new Error(`${id} failed: ${response.body}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

async function run(chromiumPath: string | undefined): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-change-report-'))
  const app = await buildApp(defaultConfig({ dataDir, chromiumPath, reportScreenshots: 3 }))
  try {
    const token = await signIn(app)
    await createProject(app, token, 'bench')
    const live = await deploy(app, token, 'bench', site(new Set()), { waitSeconds: 60 })
    await settled(app, token, live.id)
    const preview = await deploy(app, token, 'bench', site(new Set([3, 250, 499])), {
      promote: false,
      waitSeconds: 60,
    })
    await settled(app, token, preview.id)
    // The preview is live (built and served) here: the report is what is timed.
    const started = performance.now()
    const response = await app.inject({
      method: 'GET',
      url: `/projects/slug/bench/deployments/${preview.id}/report`,
      headers: bearer(token),
    })
    const seconds = (performance.now() - started) / 1000
    const report = response.json() as {
      pages: { changed: unknown[]; unchanged: number }
      screenshots: { taken: boolean; reason: string | null; pages: unknown[] }
    }
    console.log(
      `${chromiumPath ? 'with screenshots   ' : 'without screenshots'}  ${seconds.toFixed(2)} s  ` +
        `${report.pages.changed.length} changed, ${report.pages.unchanged} unchanged; ` +
        (report.screenshots.taken
          ? `${report.screenshots.pages.length} screenshots (desktop + phone, live + preview + difference)`
          : `no screenshots: ${report.screenshots.reason}`),
    )
  } finally {
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium'
console.log(`change report of a ${pages}-page site, 3 pages changed, timed from the preview being live`)
await run(undefined)
if (existsSync(chromium)) await run(chromium)
else console.log(`no Chromium at ${chromium}: set CHROMIUM to time screenshots`)
