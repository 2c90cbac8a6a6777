/**
 * Every module a child `node` process loads, for tests about start-up: a loader hook logs each ES module
 * (and each CommonJS module an ES module imports), and at exit the require cache adds the CommonJS
 * modules other CommonJS modules required, which pass no hook.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** Runs `node …args` and returns its stdout and the URLs or paths of the modules it loaded, in order. */
export async function loadedModules(args: readonly string[]): Promise<{ stdout: string; modules: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-loaded-'))
  try {
    const log = join(dir, 'loaded.txt')
    const hooks = join(dir, 'hooks.mjs')
    await writeFile(
      hooks,
      `import { appendFileSync } from 'node:fs'\n` +
        `export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }\n`,
    )
    const setup = join(dir, 'setup.mjs')
    await writeFile(
      setup,
      `import { appendFileSync } from 'node:fs'\nimport { createRequire, register } from 'node:module'\n` +
        `register(${JSON.stringify(`file://${hooks}`)})\n` +
        `process.on('exit', () => appendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(import.meta.url).cache).join('\\n')))\n`,
    )
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', `file://${setup}`, ...args])
    const modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean)
    return { stdout, modules }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
