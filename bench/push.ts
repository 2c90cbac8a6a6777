/**
 * `npm run bench:push`: a 1,000-page site pushed to a real docs-server, cold and then after editing
 * one page. Prints bytes uploaded and wall time (read, validate, hash, upload, build, live) of each.
 * Target: the second push uploads under 1% of the bytes of the first and is live in under 2 s.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { PassThrough } from 'node:stream'
import { ApiClient } from '../cli/api.js'
import { deploy } from '../cli/push/deploy.js'
import { createReporter, formatBytes } from '../cli/push/progress.js'
import { hasErrors } from '../compiler/diagnostics.js'
import { validateSite } from '../compiler/validate-site.js'
import { readSiteFiles } from '../lib/site-dir.js'
import { startDocsServer } from '../test/cli/helpers/docs-server.js'

const pageCount = 1000
const slug = 'bench-push'

function page(index: number, edition: number): string {
  const paragraphs = Array.from(
    { length: 6 },
    (_, paragraph) =>
      `Paragraph ${paragraph + 1} of page ${index} explains how the widget API handles request ${index * 7 + paragraph}. ` +
      'Configure retries, timeouts and pagination; each option is described below with its default and an example.',
  ).join('\n\n')
  return `---\ntitle: Page ${index}\ndescription: Reference page ${index} (edition ${edition})\n---\n\n## Overview\n\n${paragraphs}\n\n## Example\n\n\`\`\`ts\nconst client = new Widget({ page: ${index} })\nawait client.fetch()\n\`\`\`\n`
}

async function writeSite(dir: string): Promise<void> {
  const groups = Array.from({ length: pageCount / 50 }, (_, group) => ({
    group: `Section ${group + 1}`,
    pages: Array.from({ length: 50 }, (_, index) => `section-${group + 1}/page-${group * 50 + index}`),
  }))
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({ name: 'Bench', slug, navigation: { groups } }, null, 2),
  )
  for (let group = 0; group < pageCount / 50; group++) {
    await mkdir(join(dir, `section-${group + 1}`), { recursive: true })
    for (let index = 0; index < 50; index++) {
      const number = group * 50 + index
      await writeFile(join(dir, `section-${group + 1}`, `page-${number}.mdx`), page(number, 1))
    }
  }
}

async function push(client: ApiClient, dir: string) {
  const started = performance.now()
  const { files, problems } = await readSiteFiles(dir)
  if (problems.length > 0) throw new Error(problems.join('\n'))
  const validation = validateSite(files, { mode: 'strict' })
  if (hasErrors(validation.diagnostics)) throw new Error('the generated site is not valid')
  const result = await deploy({
    client,
    slug,
    files,
    branch: 'main',
    reporter: createReporter(process.env.BENCH_VERBOSE ? process.stderr : new PassThrough()),
  })
  if (result.deployment.status !== 'ready')
    throw new Error(`build failed: ${result.error ?? result.deployment.status}`)
  return { ...result, wallMs: performance.now() - started }
}

const server = await startDocsServer()
const siteDir = await mkdtemp(join(tmpdir(), 'bench-push-'))
try {
  await writeSite(siteDir)
  const token = await server.tokenFor('bench@example.com')
  const owner = new ApiClient({ apiUrl: server.apiUrl, token: () => token })
  const project = await owner.createProject({ name: 'Bench', slug })
  const { token: deployKey } = await owner.createDeployKey(project.id, 'bench')
  const client = new ApiClient({ apiUrl: server.apiUrl, token: () => deployKey })

  const cold = await push(client, siteDir)
  await writeFile(join(siteDir, 'section-7', 'page-321.mdx'), page(321, 2))
  const edit = await push(client, siteDir)

  const row = (label: string, run: typeof cold) =>
    `${label.padEnd(16)} ${String(run.uploadedFiles).padStart(5)} of ${run.totalFiles} files  ${formatBytes(run.uploadedBytes).padStart(9)} uploaded  ${(run.wallMs / 1000).toFixed(2).padStart(6)} s to live  (${run.deployment.stats?.pagesRendered ?? '?'} pages rendered)`
  console.log(
    `push of a ${pageCount}-page site (${formatBytes(cold.totalBytes)}) to docs-server at ${server.apiUrl}`,
  )
  console.log(row('cold push', cold))
  console.log(row('one-page edit', edit))
  const share = (100 * edit.uploadedBytes) / cold.uploadedBytes
  console.log(
    `second push: ${share.toFixed(3)}% of the bytes (target < 1%: ${share < 1 ? 'met' : 'missed'}), live in ${(edit.wallMs / 1000).toFixed(2)} s (target < 2 s: ${edit.wallMs < 2000 ? 'met' : 'missed'})`,
  )
} finally {
  await server.stop()
  await rm(siteDir, { recursive: true, force: true })
}
