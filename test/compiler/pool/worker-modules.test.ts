import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { buildSite } from '../../../compiler/build.js'
import { compilerBuildUrl, renderWorkerUrl } from '../../../compiler/pool/worker-modules.js'
import { fromPackageRoot } from '../../../lib/package-root.js'
import { readFixture } from '../build/helpers.js'

const page = `---
title: Everything at once
---

export const Greeting = ({ name }) => <strong className="greeting">Hello, {name}</strong>

<Greeting name="bundle" />

$$
e^{i\\pi} + 1 = 0
$$

\`\`\`ts title="hello.ts"
const answer: number = 42
\`\`\`

\`\`\`mermaid
graph TD; A-->B
\`\`\`

| a | b |
| - | - |
| 1 | 2 |
`

test('threads load the compiler from the bundle npm run build makes', () => {
  assert.equal(
    fileURLToPath(renderWorkerUrl()),
    fromPackageRoot('dist', 'bundle', 'compiler', 'pool', 'render-worker.js'),
  )
  assert.equal(fileURLToPath(compilerBuildUrl()), fromPackageRoot('dist', 'bundle', 'compiler', 'build.js'))
  // One copy of the compiler: both entries import the chunks they share instead of holding their own.
  const worker = readFileSync(fileURLToPath(renderWorkerUrl()), 'utf8')
  assert.match(worker, /from "\.\.\/\.\.\/chunk-[A-Z0-9]+\.js"/)
})

test('the bundled buildSite builds what the unbundled one does, code components, math and highlighting included', async () => {
  const files = readFixture(fromPackageRoot('fixtures', 'sites', 'full'))
  files.set('everything.mdx', new TextEncoder().encode(page))
  const config = JSON.parse(new TextDecoder().decode(files.get('docs.json'))) as {
    navigation: { tabs?: { groups?: { pages: string[] }[] }[]; groups?: { pages: string[] }[] }
  }
  const group = config.navigation.tabs?.[0]?.groups?.[0] ?? config.navigation.groups?.[0]
  assert.ok(group, 'the fixture has a first group')
  group.pages.push('everything')
  files.set('docs.json', new TextEncoder().encode(JSON.stringify(config)))

  const bundled = ((await import(compilerBuildUrl())) as { buildSite: typeof buildSite }).buildSite
  const [unbundledResult, bundledResult] = [
    await buildSite(files, { mode: 'strict' }),
    await bundled(files, { mode: 'strict' }),
  ]
  assert.equal(bundledResult.ok, true, JSON.stringify(bundledResult.diagnostics))
  assert.deepEqual(bundledResult.diagnostics, unbundledResult.diagnostics)
  assert.deepEqual([...bundledResult.files.keys()].sort(), [...unbundledResult.files.keys()].sort())
  for (const [path, bytes] of unbundledResult.files)
    assert.deepEqual(bundledResult.files.get(path), bytes, path)
  const html = new TextDecoder().decode(bundledResult.files.get('everything/index.html'))
  assert.match(html, /<strong class="greeting">Hello, bundle<\/strong>/)
  assert.match(html, /class="katex/)
  assert.match(html, /class="shiki/)
})
