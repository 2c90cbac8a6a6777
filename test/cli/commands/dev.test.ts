import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { type TestContext, test } from 'node:test'
import { EVENTS_PATH } from '../../../cli/dev/live-reload.js'
import { startDevServer } from '../../../cli/dev/server.js'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { builtBinary, needs } from '../../tier.js'

const fixture = fromPackageRoot('test', 'compiler', 'build', 'fixtures', 'shell-site')

function siteCopy(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-dev-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(fixture, dir, { recursive: true })
  return dir
}

async function serve(t: TestContext, dir: string) {
  const log: string[] = []
  const server = await startDevServer({ dir, port: 0, log: (line) => log.push(line) })
  t.after(() => server.close())
  const fetchPath = (path: string) => fetch(new URL(path, server.url), { redirect: 'manual' })
  return { server, log, fetchPath }
}

/** Resolves with the time at which the preview's event stream announces a reload. */
function nextReload(
  url: string,
  t: TestContext,
): Promise<{ connected: Promise<void>; reloaded: Promise<number> }> {
  return new Promise((resolveOuter) => {
    let markConnected: () => void = () => {}
    const connected = new Promise<void>((resolve) => {
      markConnected = resolve
    })
    const reloaded = new Promise<number>((resolve, reject) => {
      const request = get(new URL(EVENTS_PATH, url), (response) => {
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (chunk.includes(': connected')) markConnected()
          if (chunk.includes('event: reload')) {
            resolve(performance.now())
            request.destroy()
          }
        })
      })
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
      })
      t.after(() => request.destroy())
    })
    resolveOuter({ connected, reloaded })
  })
}

/**
 * Fetches `path` until its body matches: a watcher may fold two quick saves into one event, so
 * later steps wait for the content rather than for a count of reload events.
 */
async function untilServed(fetchPath: (path: string) => Promise<Response>, path: string, pattern: RegExp) {
  let body = ''
  for (let attempt = 0; attempt < 200; attempt++) {
    body = await (await fetchPath(path)).text()
    if (pattern.test(body)) return body
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.match(body, pattern)
  return body
}

test('docsctl dev serves pages, markdown, theme files and site-wide outputs', async (t) => {
  const { fetchPath } = await serve(t, siteCopy(t))
  const home = await fetchPath('/')
  assert.equal(home.status, 200)
  const html = await home.text()
  assert.match(html, /<h1 class="d-title">Welcome to Acme<\/h1>/)
  assert.match(
    html,
    new RegExp(`new EventSource\\("${EVENTS_PATH}"\\)`),
    'the live reload script is injected',
  )
  const bare = await fetchPath('/guide/setup')
  assert.equal(bare.status, 302)
  assert.equal(bare.headers.get('location'), '/guide/setup/')
  const setup = await fetchPath('/guide/setup/')
  assert.match(await setup.text(), /<h1 class="d-title">Setup<\/h1>/)
  const css = html.match(/href="(_assets\/site\.[0-9a-f]+\.css)"/)?.[1]
  assert.ok(css)
  const stylesheet = await fetchPath(`/${css}`)
  assert.equal(stylesheet.status, 200)
  assert.match(stylesheet.headers.get('content-type') ?? '', /^text\/css/)
  const markdown = await fetchPath('/guide/setup.md')
  assert.match(await markdown.text(), /^# Setup/)
  const logo = await fetchPath('/logo/light.svg')
  assert.equal(logo.status, 200)
  assert.match(await (await fetchPath('/llms.txt')).text(), /^# Acme Docs/)
  assert.match(await (await fetchPath('/_search/index.js')).text(), /^window\.__docsSearchIndex=/)
  const missing = await fetchPath('/no/such/page/')
  assert.equal(missing.status, 404)
  assert.match(await missing.text(), /Page not found/)
  const source = await fetchPath('/docs.json')
  assert.equal(source.status, 404, 'sources are compiled, not served')
  assert.equal((await fetchPath('/%E0%A4%A')).status, 400)
})

test('docsctl dev reloads the open tab after a saved page, and shows the change', async (t) => {
  const dir = siteCopy(t)
  const { server, fetchPath } = await serve(t, dir)
  assert.match(await (await fetchPath('/guide/setup/')).text(), /Create a project/)
  const { connected, reloaded } = await nextReload(server.url, t)
  await connected
  const saved = performance.now()
  writeFileSync(join(dir, 'guide', 'setup.mdx'), '---\ntitle: Setup\n---\n\n## Freshly saved heading\n')
  const at = await reloaded
  t.diagnostic(`reload announced ${Math.round(at - saved)} ms after the save`)
  assert.match(await (await fetchPath('/guide/setup/')).text(), /Freshly saved heading/)

  // A snippet change reaches the page that imports it.
  writeFileSync(join(dir, 'guide', 'setup.mdx'), readFileSync(join(fixture, 'guide', 'setup.mdx')))
  await untilServed(fetchPath, '/guide/setup/', /Keep your API token/)
  writeFileSync(join(dir, 'snippets', 'reminder.mdx'), '<Tip>Snippets reload too.</Tip>\n')
  await untilServed(fetchPath, '/guide/setup/', /Snippets reload too\./)
})

test('docsctl dev shows docs.json problems while it is invalid and recovers when it is fixed', async (t) => {
  const dir = siteCopy(t)
  const { server, log, fetchPath } = await serve(t, dir)
  const original = readFileSync(join(dir, 'docs.json'), 'utf8')
  const broken = await nextReload(server.url, t)
  await broken.connected
  writeFileSync(join(dir, 'docs.json'), '{ "name": "Acme", ')
  await broken.reloaded
  const failing = await fetchPath('/')
  assert.equal(failing.status, 500)
  const page = await failing.text()
  assert.match(page, /docs\.json has errors/)
  assert.match(page, /docs\.json:1:\d+/)
  assert.match(page, /EventSource/, 'the error page reloads itself once fixed')
  assert.ok(
    log.some((line) => line.includes('docs.json has errors')),
    log.join('\n'),
  )

  writeFileSync(join(dir, 'docs.json'), original)
  await untilServed(fetchPath, '/', /<h1 class="d-title">Welcome to Acme<\/h1>/)
  assert.ok(log.some((line) => line.includes('docs.json is valid')))
})

test('docsctl dev shows the first page of a 1,000-page site at once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-dev-large-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const groups = Array.from({ length: 20 }, (_, group) => ({
    group: `Section ${group}`,
    pages: Array.from({ length: 50 }, (_, i) => `s${group}/page-${group * 50 + i}`),
  }))
  writeFileSync(join(dir, 'docs.json'), JSON.stringify({ name: 'Large', navigation: { groups } }))
  for (const { pages } of groups) {
    for (const slug of pages) {
      mkdirSync(join(dir, slug, '..'), { recursive: true })
      writeFileSync(
        join(dir, `${slug}.mdx`),
        `---\ntitle: ${slug}\ndescription: Page ${slug}\n---\n\n## Usage\n\nText for ${slug}.\n\n\`\`\`ts\nexport const page = '${slug}'\n\`\`\`\n`,
      )
    }
  }
  const started = performance.now()
  const { fetchPath } = await serve(t, dir)
  const response = await fetchPath('/s7/page-377/')
  const body = await response.text()
  t.diagnostic(`first page of 1,000 served ${Math.round(performance.now() - started)} ms after start`)
  assert.equal(response.status, 200)
  assert.match(body, /<h1 class="d-title">s7\/page-377<\/h1>/)
  assert.match(body, /href="\.\.\/\.\.\/s19\/page-999\/"/, 'the sidebar lists every page')
})

test('the docsctl dev command takes the folder as [dir], prints its address, serves without a browser and stops on SIGINT', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = siteCopy(t)
  const child = spawn(process.execPath, [builtBinary('docsctl'), 'dev', dir, '--port', '0', '--no-open'], {
    env: { ...process.env, NO_COLOR: '1' },
  })
  t.after(() => child.kill('SIGKILL'))
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const found = output.match(/at (http:\/\/localhost:\d+\/)/)
      if (found) resolve(found[1]!)
    })
    child.once('exit', (code) => reject(new Error(`dev exited early with ${code}: ${output}`)))
  })
  assert.equal((await fetch(url)).status, 200)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGINT')
  assert.equal(await exited, 0)

  const bad = spawn(process.execPath, [builtBinary('docsctl'), 'dev', '--port', 'eighty', '--no-open'])
  let errors = ''
  bad.stdout.on('data', (chunk: Buffer) => {
    errors += chunk.toString()
  })
  bad.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve))
  assert.equal(code, 1)
  assert.match(errors, /--port must be a whole number from 0 to 65535, not "eighty"/)
})

test('docsctl dev on a busy port says so and exits 1 instead of hanging', {
  skip: needs('a built binary'),
}, async (t) => {
  const dir = siteCopy(t)
  const busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  t.after(() => busy.close())
  const port = (busy.address() as AddressInfo).port
  const child = spawn(
    process.execPath,
    [builtBinary('docsctl'), 'dev', '--dir', dir, '--port', String(port), '--no-open'],
    { env: { ...process.env, NO_COLOR: '1' } },
  )
  t.after(() => child.kill('SIGKILL'))
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after 10 s: ${output}`)), 10_000)
    child.once('exit', (exitCode) => {
      clearTimeout(timer)
      resolve(exitCode)
    })
  })
  assert.equal(code, 1)
  assert.match(output, new RegExp(`port ${port} is in use; pass another with --port`))
})
