/**
 * `npm run bench:validate`: writes a 1,000-page site (10 tabs × 10 groups × 10 pages, front matter on
 * every page) to a temp folder, then times what `docsctl validate` does: reading the folder and
 * `validateSite` in strict mode. Cold is the process's first run: its modules warm up and it loads the
 * validators `npm run build` compiled (or compiles them, when dist/schemas/*.cjs are missing).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateSite } from '../compiler/validate-site.js'
import { readSiteFiles } from '../lib/site-dir.js'

const TABS = 10
const GROUPS = 10
const PAGES = 10

async function writeSite(root: string): Promise<number> {
  const tabs = []
  let count = 0
  for (let tab = 0; tab < TABS; tab++) {
    const groups = []
    for (let group = 0; group < GROUPS; group++) {
      const pages = []
      for (let page = 0; page < PAGES; page++) {
        const slug = `tab-${tab}/group-${group}/page-${page}`
        pages.push(slug)
        count++
        await mkdir(join(root, `tab-${tab}`, `group-${group}`), { recursive: true })
        await writeFile(
          join(root, `${slug}.mdx`),
          `---\ntitle: Page ${tab}.${group}.${page}\ndescription: A generated page.\nkeywords: [bench, docs]\n---\n\n# Heading\n\nSome text with a [link](/tab-0/group-0/page-0).\n`,
        )
      }
      groups.push({ group: `Group ${group}`, pages })
    }
    tabs.push({ tab: `Tab ${tab}`, groups })
  }
  await writeFile(
    join(root, 'docs.json'),
    JSON.stringify({ name: 'Bench', slug: 'bench', navigation: { tabs } }, null, 2),
  )
  return count
}

const root = await mkdtemp(join(tmpdir(), 'bench-validate-'))
try {
  const pages = await writeSite(root)
  const timings: { read: number; validate: number }[] = []
  for (let run = 0; run < 6; run++) {
    const started = performance.now()
    const { files } = await readSiteFiles(root)
    const read = performance.now()
    const result = validateSite(files, { mode: 'strict' })
    const done = performance.now()
    if (result.diagnostics.length > 0 || result.navigation?.pages.length !== pages) {
      throw new Error(`bench site did not validate cleanly: ${result.diagnostics.length} diagnostics`)
    }
    timings.push({ read: read - started, validate: done - read })
  }
  const [cold, ...warm] = timings
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  const ms = (value: number) => `${value.toFixed(1)} ms`
  console.log(`validate: ${pages} pages, ${TABS} tabs`)
  console.log(`  cold (first run): read ${ms(cold?.read ?? 0)}, validateSite ${ms(cold?.validate ?? 0)}`)
  console.log(
    `  warm (median of ${warm.length}): read ${ms(median(warm.map((t) => t.read)))}, validateSite ${ms(median(warm.map((t) => t.validate)))}`,
  )
} finally {
  await rm(root, { recursive: true, force: true })
}
