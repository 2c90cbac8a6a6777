/**
 * The package as a user gets it: `npm pack`, `npm install <tarball>` into an empty folder, then the
 * installed `docsctl build` and `docs-server`. It proves that package.json `files` ships every runtime
 * asset (schemas, templates, the theme's stylesheets and bundled script), that dist/test and dist/bench
 * stay out, and that a missing asset stops both binaries with a message naming it.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { fromPackageRoot } from '../../compiler/assets.js'
import { THEME_ASSETS } from '../../compiler/theme/assets.js'
import { cleanEnv, startDocsServer } from '../cli/helpers/docs-server.js'

const run = promisify(execFile)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
// As a user's own npm runs it: without the settings `npm test` exports from this checkout's .npmrc
// (engine-strict is for developing docsctl; a user's install of the tarball only warns on engines).
const npmEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_config_engine_strict$/i.test(name)),
  ),
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
}

interface PackResult {
  filename: string
  files: { path: string }[]
}

/** The version field of an installed package's package.json. */
const versionOf = async (packageDir: string): Promise<string> =>
  (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version

/**
 * better-sqlite3 has no prebuilt binary reachable here, so its install script compiles SQLite from
 * source for minutes. The checkout already holds that compiled binding for the same version: reuse
 * it, and compile only when the versions differ.
 */
async function provideSqliteBinding(app: string): Promise<void> {
  const installed = join(app, 'node_modules', 'better-sqlite3')
  const local = fromPackageRoot('node_modules', 'better-sqlite3')
  if ((await versionOf(installed)) !== (await versionOf(local))) {
    await run(npm, ['rebuild', 'better-sqlite3'], { cwd: app, env: npmEnv })
    return
  }
  await mkdir(join(installed, 'build', 'Release'), { recursive: true })
  const binding = join('build', 'Release', 'better_sqlite3.node')
  await copyFile(join(local, binding), join(installed, binding))
}

/** Exit code and everything printed by a failed run (clipanion prints a command's error on stdout). */
const exitOf = (error: unknown): { code: number; output: string } => {
  const failure = error as { code?: number; stdout?: string; stderr?: string }
  return { code: failure.code ?? 0, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` }
}

test('the packed tarball installs into an empty folder, builds a styled site and serves', {
  timeout: 600_000,
}, async (t) => {
  const work = await mkdtemp(join(tmpdir(), 'docsctl-package-'))
  t.after(() => rm(work, { recursive: true, force: true }))

  // --ignore-scripts: `prepare` would rebuild dist, which `npm test` has just done.
  const packed = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: fromPackageRoot(),
    env: npmEnv,
  })
  const [tarball] = JSON.parse(packed.stdout) as PackResult[]
  assert.ok(tarball)
  const shipped = new Set(tarball.files.map((file) => file.path))
  for (const asset of [...THEME_ASSETS.stylesheets, THEME_ASSETS.script]) assert.ok(shipped.has(asset), asset)
  const stray = [...shipped].filter((path) => /^dist\/(test|bench)\//.test(path))
  assert.deepEqual(stray, [], 'tests and benchmarks stay out of the tarball')

  const app = join(work, 'app')
  await mkdir(app)
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'empty-app', private: true }))
  const started = performance.now()
  // --ignore-scripts here too: the only dependency with an install script is better-sqlite3 (below).
  await run(
    npm,
    [
      'install',
      join(work, tarball.filename),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { cwd: app, env: npmEnv, maxBuffer: 16 * 1024 * 1024 },
  )
  t.diagnostic(`npm install of the tarball took ${((performance.now() - started) / 1000).toFixed(1)} s`)
  await provideSqliteBinding(app)
  const bin = (name: string) => join(app, 'node_modules', '.bin', name)

  // docsctl build from the installed package: the page links a stylesheet holding both the shell's
  // and the components' styles, and a script that exists.
  const site = join(work, 'site')
  const build = await run(
    process.execPath,
    [bin('docsctl'), 'build', fromPackageRoot('fixtures', 'sites', 'full'), '--out', site],
    { cwd: work, env: cleanEnv() },
  )
  assert.match(build.stdout, /Built \d+ pages/)
  const page = await readFile(join(site, 'quickstart', 'index.html'), 'utf8')
  assert.match(page, /class="d-step"/, 'the fixture page uses a component')
  const stylesheet = /<link rel="stylesheet" href="\.\.\/(_assets\/site\.[0-9a-f]+\.css)">/.exec(page)?.[1]
  assert.ok(stylesheet, 'the page links the site stylesheet')
  const css = await readFile(join(site, stylesheet), 'utf8')
  for (const source of THEME_ASSETS.stylesheets) {
    assert.ok(
      css.includes(await readFile(fromPackageRoot(source), 'utf8')),
      `the stylesheet includes ${source}`,
    )
  }
  assert.match(css, /\.d-step\b/)
  const script = /<script src="\.\.\/(_assets\/site\.[0-9a-f]+\.js)" defer>/.exec(page)?.[1]
  assert.ok(script, 'the page links the site script')
  assert.equal(
    await readFile(join(site, script), 'utf8'),
    await readFile(fromPackageRoot(THEME_ASSETS.script), 'utf8'),
  )

  // docs-server from the installed package starts on its embedded SQLite and answers /health.
  const server = await startDocsServer([], bin('docs-server'))
  try {
    const health = await fetch(`${server.apiUrl}/health`)
    assert.equal(health.status, 200)
  } finally {
    await server.stop()
  }

  // An install missing a theme asset stops both binaries with the file's name, not an unstyled site.
  await rm(join(app, 'node_modules', 'docsctl', 'compiler', 'components', 'components.css'))
  const broken = await run(
    process.execPath,
    [bin('docsctl'), 'build', fromPackageRoot('fixtures', 'sites', 'minimal'), '--out', join(work, 'broken')],
    { cwd: work, env: cleanEnv() },
  ).then(() => ({ code: 0, output: '' }), exitOf)
  assert.equal(broken.code, 1)
  assert.match(broken.output, /cannot find its theme asset compiler\/components\/components\.css/)
  await assert.rejects(
    startDocsServer([], bin('docs-server')),
    /cannot find its theme asset compiler\/components\/components\.css/,
  )
})
