/**
 * `npm run bench:builds`: the starvation pages of issue 10 and the fair-queue case, each through a
 * real server (SQLite, a temp data folder, default limits) in its own child process, so each peak RSS
 * is its own. Prints the time until the deployment ended and the process's peak RSS; does not assert.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/app.js'
import { defaultConfig } from '../server/config.js'
import { createProject, deploy, fixtureSite, signIn } from '../test/server/helper.js'

const encode = (value: string) => new TextEncoder().encode(value)
const page = (body: string) => encode(`---\ntitle: Bench\n---\n\n${body}\n`)

const starving: Record<string, () => Map<string, Uint8Array>> = {
  'quotes ("> " × 100k)': () => site(page(`${'> '.repeat(100_000)}x`)),
  'lists ("- " × 100k)': () => site(page(`${'- '.repeat(100_000)}x`)),
  'brackets ("[" × 50k)': () => site(page('['.repeat(50_000))),
  '2 MB snippet × 500': () =>
    site(page('<Snippet file="big.mdx" />\n\n'.repeat(500)), [
      'snippets/big.mdx',
      encode('word '.repeat(15).concat('\n\n').repeat(26_000)),
    ]),
  '<i onclick> × 100k': () => site(page('<i onclick="x()">i</i> '.repeat(100_000))),
}

function site(body: Uint8Array, extra?: [string, Uint8Array]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ['docs.json', encode(JSON.stringify({ name: 'Bench', navigation: { pages: ['index', 'other'] } }))],
    ['index.mdx', body],
    ['other.mdx', page('The rest of the site.')],
  ])
  if (extra) files.set(...extra)
  return files
}

async function runCase(name: string): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-builds-'))
  const app = await buildApp(defaultConfig({ dataDir, buildWorkers: 1 }))
  try {
    const token = await signIn(app)
    let seconds: number
    let outcome: string
    if (name === 'fair-queue') {
      const full = await fixtureSite('full')
      for (let index = 0; index < 15; index++) {
        await createProject(app, token, `busy-${index}`)
        await deploy(app, token, `busy-${index}`, full, { waitSeconds: 0 })
      }
      const other = await signIn(app, 'other@example.com')
      await createProject(app, other, 'other')
      const started = performance.now()
      const pushed = await deploy(app, other, 'other', site(page('One page.')))
      seconds = (performance.now() - started) / 1000
      outcome = `${pushed.finalized.statusCode} ${pushed.finalized.json().live ? 'live' : 'not live'}`
    } else {
      await createProject(app, token, 'starving')
      const started = performance.now()
      const pushed = await deploy(app, token, 'starving', starving[name]!())
      seconds = (performance.now() - started) / 1000
      const body = pushed.finalized.json() as { deployment?: { diagnostics: { rule: string }[] } }
      const rules = new Set(body.deployment?.diagnostics.map((diagnostic) => diagnostic.rule) ?? [])
      outcome = `${pushed.finalized.statusCode} ${[...rules].join(', ') || 'no errors'}`
    }
    const rss = Math.round(process.resourceUsage().maxRSS / 1024)
    console.log(`${name.padEnd(28)} ${seconds.toFixed(2).padStart(6)} s  peak RSS ${rss} MB  → ${outcome}`)
  } finally {
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [only] = process.argv.slice(2)
  if (only) await runCase(only)
  else {
    console.log('bench:builds: each case in its own process; time until the deployment ended')
    for (const name of [...Object.keys(starving), 'fair-queue']) {
      spawnSync(process.execPath, [fileURLToPath(import.meta.url), name], { stdio: 'inherit' })
    }
  }
}
