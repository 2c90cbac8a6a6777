/**
 * Components defined in code, beyond the fixtures (test/compiler/fixtures/code-component-*): what the
 * sandbox must never do to the host, and what it must cost nothing for.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { type RenderPageInput, renderPage } from '../../../compiler/content/render-page.js'
import { createHighlighter } from '../../../compiler/highlight/index.js'
import { SANDBOX_STEP_LIMIT, sandboxStats } from '../../../compiler/sandbox/quickjs.js'
import { startCpuHog } from '../../cpu-hog.js'

const encoder = new TextEncoder()

async function render(
  source: string,
  files: Record<string, string> = {},
  mode: 'strict' | 'lenient' = 'lenient',
) {
  const input: RenderPageInput = {
    file: 'guide/page.mdx',
    slug: 'guide/page',
    source,
    files: new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)])),
    pageSlugs: new Set(['guide/page']),
    mode,
    highlighter: await createHighlighter(),
  }
  return renderPage(input)
}

test('a file outside the site that a component tries to reach is never read', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'docs-sandbox-'))
  t.after(() => rmSync(folder, { recursive: true, force: true }))
  const secretPath = join(folder, 'secret.jsx')
  const token = 'SECRET-4f1d0c'
  writeFileSync(secretPath, `export const Secret = () => '${token}'`)
  // An access time older than the modification time is updated by any read, even under `relatime`.
  utimesSync(secretPath, 1_000, Date.now() / 1000)
  const before = statSync(secretPath).atimeMs
  const path = JSON.stringify(secretPath)

  const imported = await render(
    [
      '---',
      'title: Imports',
      '---',
      `import { Secret } from ${JSON.stringify(`../../../../../../../..${secretPath}`)}`,
      `import { Other } from ${JSON.stringify(`/snippets/../../..${secretPath}`)}`,
      'export const Shown = () => <p>shown</p>',
      '',
      '<Secret />',
      '',
      '<Other />',
    ].join('\n'),
  )
  assert.deepEqual(
    imported.diagnostics.map((d) => `${d.line} ${d.rule}`),
    ['4 import-not-allowed', '5 import-not-allowed', '8 unknown-component', '10 unknown-component'],
  )
  const page = await render(
    [
      '---',
      'title: Reads',
      '---',
      'export const Reader = () => {',
      '  const attempts = []',
      `  try { attempts.push(std.loadFile(${path})) } catch (error) { attempts.push(String(error)) }`,
      `  try { attempts.push(require('fs').readFileSync(${path}, 'utf8')) } catch (error) { attempts.push(String(error)) }`,
      `  try { attempts.push(globalThis.process.binding('fs')) } catch (error) { attempts.push(String(error)) }`,
      `  try { attempts.push(fetch('file://' + ${path})) } catch (error) { attempts.push(String(error)) }`,
      `  try { attempts.push(import(${path})) } catch (error) { attempts.push(String(error)) }`,
      `  try { attempts.push(Function('return this')().os.open(${path})) } catch (error) { attempts.push(String(error)) }`,
      '  return <pre>{attempts.map(String).join("\\n")}</pre>',
      '}',
      '',
      '<Reader />',
    ].join('\n'),
  )
  const everything =
    imported.html + JSON.stringify(imported.diagnostics) + page.html + JSON.stringify(page.diagnostics)
  assert.doesNotMatch(everything, new RegExp(token))
  assert.match(page.html, /<pre>ReferenceError: 'std' is not defined\nError: Cannot import "fs"/)
  assert.ok(page.diagnostics.some((d) => d.rule === 'import-not-allowed' && d.message.includes('"fs"')))
  assert.equal(
    page.dependencies.some((file) => file.includes('secret')),
    false,
    'no dependency outside the site',
  )

  // The check can fail: a read here does move the access time.
  const after = statSync(secretPath).atimeMs
  readFileSync(secretPath)
  if (statSync(secretPath).atimeMs === after) {
    t.skip('this filesystem does not record access times; the output checks above still ran')
    return
  }
  assert.equal(after, before, 'the secret file was not opened while rendering')
})

test('prototype pollution inside the sandbox reaches neither the host nor other components', async () => {
  const page = await render(
    [
      'export const Pollute = () => {',
      '  Array.prototype.map = () => ["hacked"]',
      '  return <p>never</p>',
      '}',
      'export const Props = () => <p {...JSON.parse(\'{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}\')}>props</p>',
      'export const List = () => <ul>{[1, 2].map((n) => <li>{n}</li>)}</ul>',
      '',
      '<Pollute />',
      '',
      '<Props />',
      '',
      '<List />',
    ].join('\n'),
  )
  assert.equal(({} as Record<string, unknown>).polluted, undefined)
  assert.deepEqual(
    [1, 2].map((n) => n * 2),
    [2, 4],
  )
  assert.match(page.html, /<ul><li>1<\/li><li>2<\/li><\/ul>/)
  assert.ok(page.diagnostics.some((d) => d.rule === 'code-component-error' && d.line === 2))
})

test('a failing component is an error in strict mode, with its line in the snippet that defines it', async () => {
  const page = await render(
    [
      '---',
      'title: Broken',
      '---',
      'import { Broken } from "/snippets/broken.jsx"',
      '',
      '<Broken />',
      '',
      'Text after.',
    ].join('\n'),
    {
      'snippets/broken.jsx':
        'export const Broken = () => {\n  const value = null\n  return <p>{value.length}</p>\n}\n',
    },
    'strict',
  )
  assert.match(page.html, /<p>Text after.<\/p>/)
  const [diagnostic] = page.diagnostics
  assert.equal(diagnostic?.severity, 'error')
  assert.equal(diagnostic?.file, 'snippets/broken.jsx')
  assert.equal(diagnostic?.line, 3)
  assert.deepEqual(page.dependencies, ['snippets/broken.jsx'])
})

test('pages without code components never open a sandbox; pages with them open one each', async (t) => {
  const opened = sandboxStats.opened
  await render('# Plain\n\n<Note>Built-in only, {1 + 1} static.</Note>\n\nexport const title = "static"\n')
  assert.equal(sandboxStats.opened, opened)

  const source =
    'export const Hello = ({ name }) => <p>Hello {name}</p>\n\n<Hello name="a" />\n\n<Hello name="b" />\n'
  await render(source)
  const started = performance.now()
  const runs = 20
  for (let run = 0; run < runs; run++) await render(source)
  t.diagnostic(
    `a page with two code components renders in ${((performance.now() - started) / runs).toFixed(1)} ms`,
  )
  assert.equal(sandboxStats.opened, opened + runs + 1)
})

test('a component that replaces the sandbox’s own functions only spoils its own page’s answers', async () => {
  const page = await render(
    [
      '---',
      'title: Tamper',
      '---',
      'export const Tamper = () => {',
      '  globalThis.__safe = () => "{not json"',
      '  return <p>tampered</p>',
      '}',
      'export const Stringify = () => {',
      '  JSON.stringify = () => "{}"',
      '  return <p>never</p>',
      '}',
      'export const After = () => <p>after</p>',
      '',
      '<Stringify />',
      '',
      '<Tamper />',
      '',
      '<After />',
      '',
      'Plain text still renders.',
    ].join('\n'),
  )
  assert.match(page.html, /<p>tampered<\/p>\n<p>Plain text still renders.<\/p>/)
  assert.deepEqual(
    page.diagnostics.map((d) => `${d.rule} ${d.line}`),
    ['code-component-error 9', 'code-component-error 18'],
  )
  assert.match(page.diagnostics[1]?.message ?? '', /could not read/)
})

test('the sandbox counts steps, not time: the same components fit or stop alike on an idle and a busy machine', async (t) => {
  const page = (body: string) =>
    ['---', 'title: Work', '---', `export const Work = () => { ${body} }`, '', '<Work />', ''].join('\n')
  // Half the step budget, but slow steps (a float sum): over a second of work, which a time limit of
  // one second refused on an idle machine and, worse, on a busy one only.
  const slowButUnder = page(
    `let total = 0; for (let i = 0; i < ${SANDBOX_STEP_LIMIT / 4}; i++) total += i; return <p>{total > 0 ? 'done' : 'none'}</p>`,
  )
  const endless = page('for (;;) {}')
  const outcome = async (source: string) => {
    const rendered = await render(source)
    return { html: rendered.html, diagnostics: rendered.diagnostics }
  }
  const idle = [await outcome(slowButUnder), await outcome(endless)]
  assert.match(idle[0]!.html, /<p>done<\/p>/)
  assert.deepEqual(idle[0]!.diagnostics, [])
  assert.deepEqual(
    idle[1]!.diagnostics.map((diagnostic) => diagnostic.rule),
    ['code-component-timeout'],
  )
  const hog = await startCpuHog()
  t.after(() => hog.stop())
  const busy = [await outcome(slowButUnder), await outcome(endless)]
  assert.deepEqual(busy, idle)
})
