/**
 * Bad input, generated (fast-check): docs.json values, MDX text (made of hostile fragments, MDX syntax
 * and random text), pages of the real-world corpus sites mutated at random, and front matter. For every
 * input the compiler answers with diagnostics, never a throw (nor a `render-failed` diagnostic, its safety
 * net for a throw), and no page it builds carries script its author's components did not put in the
 * theme (html-safety.ts). The time of each build is a figure, never a failure. A failure prints the
 * shrunk input and the seed: `DOCS_RELIABILITY_SEED=<seed>` runs the same cases again.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { fromPackageRoot } from '../../compiler/assets.js'
import { buildSite } from '../../compiler/build.js'
import type { BuildResult } from '../../compiler/types.js'
import { corpusRoot, corpusSites } from '../corpus.js'
import { type ShellScripts, unsafeMarkup } from './html-safety.js'
import { Cases, type Suite, type SuiteContext } from './suite.js'

const encode = (text: string) => new TextEncoder().encode(text)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const injectionFixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'script-injection')

/** Every payload line of the script-injection fixture: what a security review tried on a page. */
function hostileLines(): string[] {
  const lines: string[] = []
  for (const file of ['index.mdx', 'components.mdx', 'linked.mdx']) {
    const source = readFileSync(join(injectionFixture, file), 'utf8')
    lines.push(...source.split(/\n\s*\n/).filter((block) => block.trim() && !block.startsWith('---')))
  }
  return lines
}

/** Strings that are URLs or markup meant to run script. */
const hostileStrings = [
  "javascript:alert('x')",
  ' java\tscript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '\u0001javascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '</title><script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  '{{constructor.constructor("alert(1)")()}}',
  '<svg onload=alert(1)>',
  '$' + '{alert(1)}',
  '\u2028\u2029',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
]

/** Members of every plain object: a lookup by an author's name must not find them. */
const prototypeNames = Object.getOwnPropertyNames(Object.prototype)

/** MDX and Markdown syntax, glued at random into pages no parser expects. */
const syntaxTokens = [
  '<',
  '>',
  '/>',
  '</',
  '{',
  '}',
  '{/* */}',
  '`',
  '```',
  '```js\n',
  '~~~',
  '---\n',
  '\n',
  '\n\n',
  '# ',
  '> ',
  '- ',
  '1. ',
  '| a | b |\n|---|---|\n',
  '[',
  '](',
  ')',
  '![',
  '*',
  '_',
  '$',
  '$$',
  '&#',
  '&amp;',
  '<div',
  '<Card',
  '<Tabs>',
  '<Tab title="x">',
  '</Tab>',
  '<CodeGroup>',
  '<Note>',
  '<Accordion title=',
  '<Frame>',
  '<Steps>',
  '<Step title="s">',
  'import X from "/snippets/x.mdx"\n',
  'export const A = () => <b>a</b>\n',
  '<Snippet file="x.mdx" />',
  '<constructor />',
  '<toString>',
  '<div valueOf="1" isPrototypeOf="2">',
  '<img hasOwnProperty="x" src="/images/used.svg" />',
  '<Icon icon="constructor" />',
  '```constructor\n',
  ':::',
  '{1+1}',
  '{"str"}',
  '{[1,2]}',
  'href=',
  'src=',
  'onClick=',
  'style={{color:"red"}}',
  'className="x"',
  '\\',
  '\u0000',
  '\uFEFF',
  '\uD800',
]

const pageOf = (body: string) => `---\ntitle: Generated\n---\n\n${body}\n`

const siteWith = (page: string, docs: unknown = { name: 'Generated', navigation: { pages: ['index'] } }) =>
  new Map<string, Uint8Array>([
    ['docs.json', encode(typeof docs === 'string' ? docs : JSON.stringify(docs))],
    ['index.mdx', encode(page)],
    ['images/used.svg', encode('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')],
  ])

/** Every Markdown page of the corpus sites, by site-relative path (read when a case needs it). */
function corpusPages(): string[] {
  const pages: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.mdx?$/.test(entry.name)) pages.push(relative(corpusRoot, path))
    }
  }
  for (const site of corpusSites) walk(join(corpusRoot, site))
  return pages.sort()
}

/** A corpus site's docs.json, parsed afresh (each case changes its own copy). */
const corpusConfig = (site: string): unknown =>
  JSON.parse(readFileSync(join(corpusRoot, site, 'docs.json'), 'utf8')) as unknown

/** Replace the leaf (or, past the leaves, a key's value) at fraction `at` of the tree's leaves with `value`. */
function replaceLeaf(tree: unknown, at: number, value: unknown): void {
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = []
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      for (const [index, child] of node.entries()) {
        slots.push({ parent: node, key: index })
        walk(child)
      }
    else if (node !== null && typeof node === 'object')
      for (const [key, child] of Object.entries(node)) {
        slots.push({ parent: node as Record<string, unknown>, key })
        walk(child)
      }
  }
  walk(tree)
  const slot = slots[Math.floor(at * slots.length)]
  if (slot) (slot.parent as Record<string | number, unknown>)[slot.key] = value
}

type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number }

/** Apply mutations at fractions of the text's length (so a mutation shrinks independently of the page). */
function mutate(source: string, mutations: readonly Mutation[]): string {
  let text = source
  for (const mutation of mutations) {
    const at = Math.floor(mutation.at * text.length)
    if (mutation.kind === 'insert') text = text.slice(0, at) + mutation.text + text.slice(at)
    else if (mutation.kind === 'delete') text = text.slice(0, at) + text.slice(at + mutation.length)
    else if (mutation.kind === 'duplicate') text = text.slice(0, at + mutation.length) + text.slice(at)
    else text = text.slice(0, at)
  }
  return text
}

interface Timings {
  builds: number[]
  /** Built HTML pages read with the parser. */
  pagesChecked: number
}

const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** Build, and say what went wrong: a throw, a caught crash, or unsafe markup in a page. */
async function problemsOf(
  files: Map<string, Uint8Array>,
  shell: ShellScripts,
  timings: Timings,
  mode: 'lenient' | 'strict' = 'lenient',
): Promise<string[]> {
  const started = performance.now()
  let result: BuildResult
  try {
    result = await buildSite(files, { mode })
  } catch (error) {
    return [`buildSite threw: ${(error as Error).stack ?? String(error)}`]
  } finally {
    timings.builds.push(performance.now() - started)
  }
  const problems = result.diagnostics
    .filter((diagnostic) => diagnostic.rule === 'render-failed')
    .map((diagnostic) => `a crash caught as a diagnostic: ${diagnostic.message}`)
  const pageShell: ShellScripts = { inline: shell.inline, hashedAssets: result.hashedAssets }
  for (const [path, bytes] of result.files) {
    if (!path.endsWith('.html')) continue
    timings.pagesChecked++
    for (const problem of unsafeMarkup(decode(bytes), pageShell)) problems.push(`${path}: ${problem}`)
  }
  return problems
}

/** One payload of each kind the check must see, unsanitised. */
const CONTROL_PAGE = `<!doctype html><html><head><script>alert(1)</script><script src="https://evil.example/x.js"></script>
<meta http-equiv="refresh" content="0;url=java&#9;script:alert(2)"><base href="https://evil.example/"></head><body>
<img src="x" onerror="alert(3)"><a href=" JAVASCRIPT:alert(4)">a</a><iframe srcdoc="<b>x</b>"></iframe>
<svg><a href="javascript:alert(5)"><text>t</text></a></svg><form action="vbscript:x"></form>
<object data="data:text/html,<script>alert(6)</script>"></object><img srcset="ok.png 1x, javascript:alert(7) 2x">
</body></html>`
const CONTROL_PAYLOADS = 11

/** The shell's own inline scripts, from a plain page's build. */
async function shellScripts(): Promise<ShellScripts> {
  const result = await buildSite(siteWith(pageOf('A plain page.')), { mode: 'lenient' })
  const html = decode(result.files.get('index.html')!)
  const inline = new Set<string>()
  for (const match of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) inline.add(match[1]!)
  const shell = { inline, hashedAssets: result.hashedAssets }
  const own = unsafeMarkup(html, shell)
  if (own.length) throw new Error(`the plain page itself fails the check: ${own.join('; ')}`)
  return shell
}

export const hostileInput: Suite = {
  name: 'hostile input (compiler)',
  async run({ counts, say }: SuiteContext) {
    const cases = new Cases()
    const seed = Number(process.env.DOCS_RELIABILITY_SEED ?? Date.now() % 2 ** 31)
    const shell = await shellScripts()
    const timings: Timings = { builds: [], pagesChecked: 0 }
    // The check itself must see every kind of payload, or its silence proves nothing.
    const control = unsafeMarkup(CONTROL_PAGE, shell)
    cases.check(
      control.length === CONTROL_PAYLOADS,
      () =>
        `the markup check saw ${control.length} of the control page's ${CONTROL_PAYLOADS} payloads: ${control.join('; ')}`,
    )
    const hostile = fc.constantFrom(...hostileStrings)
    const lines = hostileLines()
    const fragment = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...lines) },
      { weight: 5, arbitrary: fc.constantFrom(...syntaxTokens) },
      { weight: 2, arbitrary: hostile },
      { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
    )
    const mdxText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''))
    /** Names that a lookup in a plain object finds on Object.prototype, and any other key. */
    const objectKey = fc.oneof(fc.constantFrom(...prototypeNames), fc.string({ maxLength: 12 }))
    const anyValue = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      hostile,
      fc.dictionary(objectKey, fc.oneof(hostile, fc.string(), fc.constantFrom(...prototypeNames)), {
        maxKeys: 4,
      }),
    )
    const injectionDocs = JSON.parse(readFileSync(join(injectionFixture, 'docs.json'), 'utf8')) as Record<
      string,
      unknown
    >
    const docsKeys = Object.keys(
      (
        JSON.parse(readFileSync(fromPackageRoot('schemas', 'docs.schema.json'), 'utf8')) as {
          properties: Record<string, unknown>
        }
      ).properties,
    )
    const docsJson = fc.oneof(
      // Known keys with values of any shape, over the injection fixture's config or a plain one.
      fc
        .tuple(
          fc.boolean(),
          fc.dictionary(fc.constantFrom(...docsKeys), anyValue, { maxKeys: 4 }),
          fc.constantFrom<unknown>(['index'], [{ group: 'G', pages: ['index'] }], { pages: ['index'] }),
        )
        .map(([overFixture, values, pages]) => ({
          ...(overFixture ? injectionDocs : { name: 'Generated' }),
          navigation: Array.isArray(pages) ? { pages } : pages,
          ...values,
        })),
      // Hostile strings in every string of a navigation tree.
      fc
        .record({
          name: fc.oneof(fc.string(), hostile),
          navigation: fc.record({
            tabs: fc.array(
              fc.record({
                tab: fc.oneof(fc.string(), hostile),
                href: fc.oneof(fc.webUrl(), hostile),
                pages: fc.constant(['index']),
              }),
              { maxLength: 3 },
            ),
            global: fc.record({
              anchors: fc.array(fc.record({ anchor: fc.string(), href: fc.oneof(fc.webUrl(), hostile) }), {
                maxLength: 3,
              }),
            }),
          }),
          navbar: fc.record({
            links: fc.array(fc.record({ label: fc.string(), href: fc.oneof(fc.webUrl(), hostile) }), {
              maxLength: 3,
            }),
          }),
          footer: fc.record({
            socials: fc.dictionary(fc.oneof(fc.constantFrom('x', 'github', 'website'), objectKey), hostile),
          }),
          logo: fc.oneof(hostile, fc.record({ light: hostile, dark: hostile, href: hostile })),
          favicon: hostile,
          banner: fc.record({ content: fc.oneof(mdxText, hostile) }),
          redirects: fc.array(
            fc.record({ source: fc.string(), destination: fc.oneof(fc.string(), hostile) }),
            {
              maxLength: 3,
            },
          ),
        })
        .map((config) => ({ ...config, navigation: { ...config.navigation, pages: ['index'] } })),
      // Not JSON at all, or JSON of the wrong shape.
      fc.string({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    )
    const frontMatterKeys = Object.keys(
      (
        JSON.parse(readFileSync(fromPackageRoot('schemas', 'frontmatter.schema.json'), 'utf8')) as {
          properties: Record<string, unknown>
        }
      ).properties,
    )
    const frontMatter = fc.oneof(
      fc
        .dictionary(fc.oneof(fc.constantFrom(...frontMatterKeys), objectKey), anyValue, { maxKeys: 6 })
        .map((values) => `---\n${stringify(values)}---\n\nBody.\n`),
      fc
        .array(
          fc.oneof(
            fc.constantFrom('---\n', ': ', '- ', '"', "'", '|\n', '&a ', '*a', '!!js/function ', '{', '['),
            fragment,
          ),
          { maxLength: 20 },
        )
        .map((parts) => `---\n${parts.join('')}\n---\n\nBody.\n`),
    )
    const pages = corpusPages()
    const sources = new Map<string, string>()
    const corpusPage = (path: string) => {
      const known = sources.get(path)
      if (known !== undefined) return known
      const source = readFileSync(join(corpusRoot, path), 'utf8')
      sources.set(path, source)
      return source
    }
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        text: fragment,
      }),
      fc.record({
        kind: fc.constant('delete' as const),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        length: fc.nat(200),
      }),
      fc.record({
        kind: fc.constant('duplicate' as const),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        length: fc.nat(200),
      }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
    )

    /** Inputs that once failed: each runs first, every time, whatever the seed. */
    const regressions: Record<string, unknown[]> = {
      // "lang.toLowerCase is not a function": a fence's language looked up on Object.prototype.
      'MDX text': ['```constructor', '```toString\nx\n```', '<constructor />', '<div toString="x">a</div>'],
      // The build threw: a footer social's platform looked up on Object.prototype.
      'docs.json values': [
        {
          name: 'Proto',
          navigation: { pages: ['index'] },
          footer: { socials: { constructor: 'https://a.example/' } },
        },
      ],
      // The build threw: a logo object without `light` ("logo": {}) reached the header.
      'mutated corpus docs.json': [
        [
          'cline',
          [
            [0.010676156583629894, {}],
            [0, "javascript:alert('x')"],
          ],
        ],
      ],
    }
    const properties: { name: string; runs: number; property: fc.IAsyncProperty<[unknown]> }[] = [
      {
        name: 'docs.json values',
        runs: counts.propertyRuns,
        property: fc.asyncProperty(docsJson, async (docs) => {
          const files = siteWith(pageOf('<img src="/images/used.svg" alt="" />'), docs)
          const problems = [
            ...(await problemsOf(files, shell, timings)),
            ...(await problemsOf(files, shell, timings, 'strict')),
          ]
          if (problems.length) throw new Error(problems.join('\n'))
        }) as fc.IAsyncProperty<[unknown]>,
      },
      {
        name: 'MDX text',
        runs: counts.propertyRuns,
        property: fc.asyncProperty(mdxText, async (body) => {
          const problems = await problemsOf(siteWith(pageOf(body)), shell, timings)
          if (problems.length) throw new Error(problems.join('\n'))
        }) as fc.IAsyncProperty<[unknown]>,
      },
      {
        name: 'front matter',
        runs: counts.propertyRuns,
        property: fc.asyncProperty(frontMatter, async (page) => {
          const problems = await problemsOf(siteWith(page), shell, timings)
          if (problems.length) throw new Error(problems.join('\n'))
        }) as fc.IAsyncProperty<[unknown]>,
      },
      {
        name: 'mutated corpus pages',
        runs: counts.corpusMutations,
        property: fc.asyncProperty(
          fc.tuple(fc.constantFrom(...pages), fc.array(mutation, { minLength: 1, maxLength: 6 })),
          async ([path, mutations]) => {
            const problems = await problemsOf(siteWith(mutate(corpusPage(path), mutations)), shell, timings)
            if (problems.length) throw new Error(`${path}: ${problems.join('\n')}`)
          },
        ) as fc.IAsyncProperty<[unknown]>,
      },
      {
        name: 'mutated corpus docs.json',
        runs: counts.corpusMutations,
        property: fc.asyncProperty(
          fc.tuple(
            fc.constantFrom(...corpusSites),
            fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), anyValue), {
              minLength: 1,
              maxLength: 4,
            }),
          ),
          async ([site, replacements]) => {
            const docs = corpusConfig(site)
            // A copy each: fast-check may hand the same value twice, and one put inside itself is a cycle
            // that no docs.json read from bytes can hold.
            for (const [at, replacement] of replacements) replaceLeaf(docs, at, structuredClone(replacement))
            const problems = await problemsOf(siteWith(pageOf('A page.'), docs), shell, timings)
            if (problems.length) throw new Error(`${site}/docs.json: ${problems.join('\n')}`)
          },
        ) as fc.IAsyncProperty<[unknown]>,
      },
    ]
    const figures: Record<string, string | number> = { seed }
    // KaTeX warns on the console about odd characters; counted here rather than flooding the run's output.
    const warn = console.warn
    let warnings = 0
    console.warn = () => {
      warnings++
    }
    try {
      for (const property of properties) await check(property)
    } finally {
      console.warn = warn
    }
    figures['console warnings (KaTeX)'] = warnings
    async function check({ name, runs, property }: (typeof properties)[number]) {
      const started = timings.builds.length
      const examples = (regressions[name] ?? []).map((input): [unknown] => [input])
      const details = await fc.check(property, { numRuns: runs, seed, examples })
      cases.count += details.numRuns
      if (details.failed) {
        cases.failures.push(
          `${name}: ${details.errorInstance instanceof Error ? details.errorInstance.message.slice(0, 2000) : String(details.errorInstance)}\n  input (shrunk): ${fc.stringify(details.counterexample).slice(0, 2000)}\n  seed ${details.seed}, path ${details.counterexamplePath}`,
        )
      }
      figures[name] = `${details.numRuns}${details.failed ? ' (stopped at a failure)' : ''}`
      say(
        `${name}: ${details.numRuns} cases, ${timings.builds.length - started} builds${details.failed ? ', FAILED' : ''}`,
      )
    }
    figures['build p50/p99/max'] =
      `${percentile(timings.builds, 50).toFixed(0)}/${percentile(timings.builds, 99).toFixed(0)}/${Math.max(0, ...timings.builds).toFixed(0)} ms`
    figures['pages parsed'] = timings.pagesChecked
    figures['corpus pages'] = pages.length
    return cases.report(figures)
  },
}
