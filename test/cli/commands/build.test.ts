import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { builtBinary, needs } from '../../tier.js'

const fixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'shell-site')

function workspace(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-build-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(fixture, join(dir, 'docs'), { recursive: true })
  return dir
}

const run = (cwd: string, ...args: string[]) => {
  const result = spawnSync(process.execPath, [builtBinary('docsctl'), 'build', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

test('docsctl build writes the static site and prints a summary', { skip: needs('a built binary') }, (t) => {
  const dir = workspace(t)
  const result = run(dir, '--out', 'public')
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /Built 7 pages \(0 warnings\) in \d+\.\d\d s → public\/ \(\d+ files\)/)
  assert.match(result.stdout, /\/mcp \(the MCP server for AI tools\) needs docs-server or docsctl dev/)
  for (const path of [
    'index.html',
    'guide/setup/index.html',
    'guide/setup.md',
    'llms.txt',
    '404.html',
    'robots.txt',
  ])
    assert.ok(existsSync(join(dir, 'public', path)), path)
  // Building again replaces the earlier build.
  writeFileSync(join(dir, 'public', 'stale.html'), 'old')
  assert.equal(run(dir, '--out', 'public').code, 0)
  assert.ok(!existsSync(join(dir, 'public', 'stale.html')))
})

/** Each relative link of the build's HTML files that a browser on `file://` opens as a folder listing. */
function linksToFolders(root: string): string[] {
  const folders: string[] = []
  const pages = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) =>
    path.endsWith('.html'),
  )
  for (const page of pages) {
    const html = readFileSync(join(root, page), 'utf8')
    for (const [, href = ''] of html.matchAll(/\shref="([^"#?]+)[^"]*"/g)) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href) || href.startsWith('/')) continue
      const target = resolve(root, dirname(page), href)
      if (existsSync(target) && statSync(target).isDirectory()) folders.push(`${page}: ${href}`)
    }
  }
  return folders
}

test('docsctl build says the site needs a web server; --file-urls links index.html files for file://', {
  skip: needs('a built binary'),
}, (t) => {
  const dir = workspace(t)
  const served = run(dir, '--out', 'served')
  assert.equal(served.code, 0, served.stderr)
  assert.match(served.stdout, /Serve served\/ with a web server .*opened from file:\/\/ .*--file-urls/)
  assert.ok(linksToFolders(join(dir, 'served')).length > 0, 'a served build links folders')
  const local = run(dir, '--out', 'local', '--file-urls')
  assert.equal(local.code, 0, local.stderr)
  assert.match(local.stdout, /Open local\/index\.html in a browser/)
  assert.deepEqual(linksToFolders(join(dir, 'local')), [])
  const setup = readFileSync(join(dir, 'local', 'guide', 'setup', 'index.html'), 'utf8')
  assert.match(setup, /href="\.\.\/\.\.\/index\.html"/)
})

test('docsctl build is strict by default: a broken link fails with its place and writes nothing', {
  skip: needs('a built binary'),
}, (t) => {
  const dir = workspace(t)
  writeFileSync(join(dir, 'docs', 'guide', 'deploy.mdx'), '---\ntitle: Deploy\n---\n\nSee [gone](/gone).\n')
  const strict = run(dir, 'docs', '--out', 'public')
  assert.equal(strict.code, 1)
  assert.match(strict.stderr, /error guide\/deploy\.mdx:5:\d+ /)
  assert.match(strict.stderr, /Build failed: 1 error, 0 warnings\. Nothing was written\./)
  assert.ok(!existsSync(join(dir, 'public')))
  const lenient = run(dir, 'docs', '--out', 'public', '--lenient')
  assert.equal(lenient.code, 0, lenient.stderr)
  assert.match(lenient.stderr, /warning guide\/deploy\.mdx:5:\d+ /)
  assert.match(lenient.stdout, /\(1 warning\)/)
})

test('docsctl build refuses a non-empty folder that is not an earlier build, and a missing docs folder', {
  skip: needs('a built binary'),
}, (t) => {
  const dir = workspace(t)
  mkdirSync(join(dir, 'notes'))
  writeFileSync(join(dir, 'notes', 'todo.txt'), 'keep me')
  const refused = run(dir, '--out', 'notes')
  assert.equal(refused.code, 1)
  assert.match(
    refused.stdout + refused.stderr,
    /is not empty and does not hold an earlier build; choose an empty or new folder/,
  )
  assert.equal(readFileSync(join(dir, 'notes', 'todo.txt'), 'utf8'), 'keep me')
  writeFileSync(join(dir, 'site.txt'), 'a file')
  const onFile = run(dir, '--out', 'site.txt')
  assert.equal(onFile.code, 1)
  assert.match(onFile.stdout + onFile.stderr, /site\.txt is a file; --out needs a folder/)
  const missing = run(dir, 'nowhere', '--out', 'public')
  assert.equal(missing.code, 1)
  assert.match(missing.stdout + missing.stderr, /cannot read the docs folder .*nowhere: it does not exist/)
  assert.doesNotMatch(missing.stderr, /at .*\.js:\d+/, 'no stack trace')
})

test('docsctl build reports an invalid docs.json with its line and exits 1', {
  skip: needs('a built binary'),
}, (t) => {
  const dir = workspace(t)
  writeFileSync(
    join(dir, 'docs', 'docs.json'),
    '{ "name": "Acme", "navigation": { "pages": ["index"] }, "colours": 1 }',
  )
  const result = run(dir, '--out', 'public')
  assert.equal(result.code, 1)
  assert.match(result.stderr, /error docs\.json:1:\d+/)
})
