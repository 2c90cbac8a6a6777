/**
 * Real sites (../shared/corpus) lose nothing their authors wrote. Components defined in code: every
 * page that uses one must show it (a lost one shows as an unknown-component box, a refused
 * `export const`, a missing export or a sandbox diagnostic naming it). Icons: every name a page, its
 * front matter or docs.json uses resolves (Font Awesome free, Lucide, or a Pro name's free stand-in).
 * Diagrams: every Mermaid fence or `<Mermaid>` a page writes is a diagram block (drawn in the browser).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { resolveIcon } from '../../../compiler/components/icons.js'
import { renderPage } from '../../../compiler/content/render-page.js'
import type { Diagnostic } from '../../../compiler/diagnostics.js'
import { decodeUtf8 } from '../../../compiler/files.js'
import { createHighlighter, type Highlighter } from '../../../compiler/highlight/index.js'
import { pageOutputPath } from '../../../compiler/theme/urls.js'
import { corpusRoot } from '../../corpus.js'
import { builtCorpusSite } from '../../corpus-build.js'
import { readFixture } from '../build/helpers.js'

/** `export const Name = (…) =>` or `export function Name(` with a capital: a component defined in code. */
const DEFINITION =
  /^export\s+(?:const\s+([A-Z]\w*)\s*=\s*(?:\([^)]*\)|\w+)\s*=>|function\s+([A-Z]\w*)\s*\()/gm

/** Outside fenced code blocks, where `export const` is only an example. */
const withoutCodeBlocks = (source: string): string =>
  source.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')

for (const site of ['pipecat', 'mem0', 'stagehand'] as const) {
  test(`${site}: no page loses a component defined in code`, async (t) => {
    const files = readFixture(join(corpusRoot, site))
    const texts = new Map([...files].map(([path, bytes]) => [path, decodeUtf8(bytes) ?? '']))
    const names = new Set<string>()
    for (const [path, text] of texts) {
      if (!/\.(mdx|jsx|tsx)$/.test(path)) continue
      for (const match of withoutCodeBlocks(text).matchAll(DEFINITION)) names.add(match[1] ?? match[2] ?? '')
    }
    const pages = [...texts.keys()]
      .filter((path) => /\.mdx$/.test(path) && !/^_?snippets\//.test(path))
      .sort()
    // The run's shared build of the site (test/corpus-build.ts) holds every page it renders; a page it
    // does not (none today) is rendered here.
    const { result } = await builtCorpusSite(site)
    const pageFiles = new Set(pages)
    let highlighter: Highlighter | undefined
    let renderedHere = 0
    let usages = 0
    const lost: string[] = []
    for (const file of pages) {
      const source = texts.get(file) ?? ''
      const used = [...names].filter((name) => new RegExp(`<${name}[\\s/>]`).test(withoutCodeBlocks(source)))
      if (used.length === 0) continue
      const slug = file.replace(/\.mdx$/, '')
      const built = result.files.get(pageOutputPath(slug))
      let page: { html: string; diagnostics: readonly Diagnostic[] }
      if (built)
        page = {
          html: decodeUtf8(built) ?? '',
          // The page's own diagnostics, and those of the snippets it imports.
          diagnostics: result.diagnostics.filter((d) => d.file === file || !pageFiles.has(d.file ?? '')),
        }
      else {
        highlighter ??= await createHighlighter()
        renderedHere++
        page = await renderPage({
          file,
          slug,
          source,
          files,
          pageSlugs: new Set(pages.map((path) => path.replace(/\.mdx$/, ''))),
          mode: 'lenient',
          highlighter,
        })
      }
      for (const name of used) {
        usages += withoutCodeBlocks(source).match(new RegExp(`<${name}[\\s/>]`, 'g'))?.length ?? 0
        const problems = page.diagnostics.filter(
          (d) =>
            d.message.includes(`<${name}>`) ||
            d.message.includes(`"${name}"`) ||
            (/^(code-component|non-static-expression|missing-export)/.test(d.rule) &&
              d.message.includes(name)),
        )
        if (page.html.includes(`data-component="${name}"`) || problems.length > 0) {
          lost.push(`${file}: <${name}> ${problems.map((d) => d.message).join('; ')}`)
        }
      }
    }
    t.diagnostic(
      `${site}: ${names.size} components defined in code, ${usages} uses, ${lost.length} lost (${renderedHere} pages not in the site's build, rendered alone)`,
    )
    assert.deepEqual(lost, [])
    if (site === 'pipecat')
      assert.ok(usages >= 50, `expected pipecat's <CommunityMaintained> uses, found ${usages}`)
  })
}

for (const site of ['pipecat', 'mem0']) {
  test(`${site}: every icon name resolves`, (t) => {
    const files = readFixture(join(corpusRoot, site))
    const names = new Map<string, string>()
    for (const [path, bytes] of files) {
      if (!/\.(mdx|json)$/.test(path)) continue
      const text = withoutCodeBlocks(decodeUtf8(bytes) ?? '')
      const patterns = [/\bicon="([^"]+)"/g, /^icon:\s*["']?([\w-]+)["']?\s*$/gm, /"icon":\s*"([^"]+)"/g]
      for (const pattern of patterns) {
        for (const [, name] of text.matchAll(pattern)) if (name && !/[/.]/.test(name)) names.set(name, path)
      }
    }
    const missing = [...names]
      .filter(([name]) => !resolveIcon(name))
      .map(([name, path]) => `${name} (${path})`)
    t.diagnostic(`${site}: ${names.size} icon names, ${missing.length} missing`)
    assert.ok(names.size > 10, `expected icons in ${site}`)
    assert.deepEqual(missing, [])
  })
}

/** Mermaid fences and `<Mermaid>` elements a page writes, not those shown as examples inside another fence. */
function mermaidWritten(source: string): number {
  let count = 0
  let open: string | undefined
  for (const line of source.split('\n')) {
    const fence = /^[ \t]*(`{3,}|~{3,})\s*([\w-]*)/.exec(line)
    if (open) {
      if (fence && fence[1]![0] === open[0] && fence[1]!.length >= open.length && !fence[2]) open = undefined
      continue
    }
    if (fence) {
      open = fence[1]
      if (fence[2] === 'mermaid') count++
    } else count += (line.match(/<Mermaid[\s>]/g) ?? []).length
  }
  return count
}

// pipecat draws ten diagrams; mem0's six are examples inside ````mdx fences, and must stay code.
for (const [site, expected] of [
  ['pipecat', 10],
  ['mem0', 0],
] as const) {
  test(`${site}: no page loses a Mermaid diagram, and no example becomes one`, async (t) => {
    const files = readFixture(join(corpusRoot, site))
    const highlighter = await createHighlighter()
    const pages = [...files.keys()]
      .filter((path) => /\.mdx$/.test(path) && !/^_?snippets\//.test(path))
      .sort()
    let diagrams = 0
    let examples = 0
    const wrong: string[] = []
    for (const file of pages) {
      const source = decodeUtf8(files.get(file)!) ?? ''
      if (!/```mermaid|<Mermaid/.test(source)) continue
      const written = mermaidWritten(source)
      const page = await renderPage({
        file,
        slug: file.replace(/\.mdx$/, ''),
        source,
        files,
        pageSlugs: new Set(pages.map((path) => path.replace(/\.mdx$/, ''))),
        mode: 'lenient',
        highlighter,
      })
      const shown = [...page.html.matchAll(/<pre class="d-mermaid-source">[^<]+<\/pre>/g)].length
      diagrams += shown
      if (written === 0) examples++
      if (shown !== written || (page.mermaid === true) !== written > 0)
        wrong.push(`${file}: ${written} written, ${shown} shown`)
    }
    t.diagnostic(
      `${site}: ${diagrams} Mermaid diagrams, ${examples} pages with only examples, ${wrong.length} wrong`,
    )
    assert.deepEqual(wrong, [])
    assert.equal(diagrams, expected)
    if (site === 'mem0') assert.ok(examples >= 6, `expected mem0's template examples, found ${examples}`)
  })
}
