/**
 * A path corpus against a real `docs-server`: `..` and `/` in every spelling (encoded, double-encoded,
 * overlong UTF-8, backslashes, fullwidth and other Unicode look-alikes), NUL, Unicode normalisation, case
 * tricks, 4 KB names, malformed escapes, absolute-form targets naming another project, then generated
 * mixtures of them (fast-check). Against serving paths: every answer is refused (4xx) or a file of the
 * project's own live deployment byte for byte, never 5xx, never a byte of the data folder, the database,
 * /etc/passwd or another project's site, and a redirect never leaves the host. Against upload paths (the
 * manifest of a new deployment, multipart part names, chunk hashes): refused with 4xx or accepted only
 * when the path is a plain relative path inside the site, never 5xx.
 */
import { createHash, randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import fc from 'fast-check'
import { FilesystemBlobStore } from '../../server/blobs/filesystem.js'
import { readSiteManifest } from '../../server/builds/site-manifest-store.js'
import { http } from '../e2e/replicas.js'
import { multipartBody } from '../server/helper.js'
import { createProject, pushSite } from './push.js'
import { type RawAnswer, rawRequest } from './raw-http.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite, type SuiteContext } from './suite.js'

const encode = (text: string) => new TextEncoder().encode(text)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** `..` in the spellings a decoder, a normaliser or a case-folding filesystem might turn into `..`. */
const dotDots = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%25252e%25252e',
  '%c0%ae%c0%ae',
  '%e0%80%ae%e0%80%ae',
  '%f0%80%80%ae%f0%80%80%ae',
  '%uff0e%uff0e',
  '\uff0e\uff0e',
  '%ef%bc%8e%ef%bc%8e',
  '\u2025',
  '..;',
  '...',
  '%00..',
  '..%00',
  '.\u0338.',
]

/** `/` likewise. */
const slashes = [
  '/',
  '%2f',
  '%2F',
  '%252f',
  '%c0%af',
  '%e0%80%af',
  '\\',
  '%5c',
  '%5C',
  '%255c',
  '%c1%9c',
  '\uff0f',
  '%ef%bc%8f',
  '//',
  '/./',
]

/** What an escape would reach: the data folder's files, the system's, another project's pages. */
const escapeTargets = (slash: string) => [
  'docs.sqlite',
  `canary.txt`,
  `etc${slash}passwd`,
  `blobs${slash}canary.txt`,
]

/** Paths that are not escapes but trip decoders, normalisers and limits. */
const oddPaths = [
  '/',
  '/index.html',
  '/INDEX.HTML',
  '/Index.Html',
  '/guide/setup/',
  '/GUIDE/SETUP/',
  '/guide/setup',
  '/guide//setup/',
  '/guide/./setup/',
  '/guide/setup/..',
  '/guide/setup/../../..',
  '/caf%C3%A9/',
  '/cafe%CC%81/',
  '/CAF%C3%89/',
  '/caf\u00e9/',
  '/cafe\u0301/',
  '/index.html%00',
  '/index.html%00.png',
  '/index.html\u0000',
  '/%00',
  '/%',
  '/%zz',
  '/%e0%80',
  '/%ff%fe',
  '/%uffff',
  '/%2e',
  '/%2e/',
  '/.',
  '/;/index.html',
  '/index.html;.png',
  '/index.html::$DATA',
  '/index.html.',
  '/index.html ',
  '/index.html%20',
  '/images/logo.svg',
  '/images%2flogo.svg',
  '/images%5clogo.svg',
  '/IMAGES/LOGO.SVG',
  '/_assets/',
  '/_assets/../docs.sqlite',
  `/${'a'.repeat(4096)}`,
  `/${`${'b'.repeat(255)}/`.repeat(16)}`,
  `/${'%2e%2e%2f'.repeat(1400)}`,
  `/${'../'.repeat(1400)}docs.sqlite`,
  `/${'\u00e9'.repeat(2048)}`,
  '//evil.example/',
  '///evil.example/',
  '/\\evil.example/',
  '/%5cevil.example/',
  '/%2f%2fevil.example/',
  '/guide/setup/?next=//evil.example/',
  '*',
  '?',
  '#',
  'index.html',
]

/** Every request target of the fixed corpus. */
function servingCorpus(otherHost: string): string[] {
  const targets = new Set<string>(oddPaths)
  for (const dotDot of dotDots)
    for (const slash of slashes)
      for (const target of escapeTargets(slash)) {
        targets.add(`/${dotDot}${slash}${dotDot}${slash}${target}`)
        targets.add(`/${`${dotDot}${slash}`.repeat(8)}${target}`)
        targets.add(`/guide${slash}${dotDot}${slash}${dotDot}${slash}${dotDot}${slash}${target}`)
      }
  // Absolute-form targets naming another project's host or another origin.
  targets.add(`http://${otherHost}/`)
  targets.add(`http://${otherHost}/index.html`)
  targets.add('http://127.0.0.1/docs.sqlite')
  targets.add('file:///etc/passwd')
  return [...targets]
}

/** The manifest paths a hostile or careless client could send. */
function uploadCorpus(): string[] {
  const paths = new Set<string>([
    '../escape.md',
    '../../escape.md',
    'a/../../escape.md',
    'a/../b.md',
    './a.md',
    'a/./b.md',
    'a//b.md',
    '/etc/passwd',
    '\\etc\\passwd',
    '..\\escape.md',
    'a\\..\\..\\escape.md',
    'C:\\Windows\\win.ini',
    'C:/Windows/win.ini',
    'a\u0000.md',
    '\u0000',
    '',
    '.',
    '..',
    '...',
    '.md',
    '%2e%2e/escape.md',
    '%2e%2e%2fescape.md',
    '..%2fescape.md',
    '%252e%252e/escape.md',
    '\uff0e\uff0e/escape.md',
    '\uff0e\uff0e\uff0fescape.md',
    '\u2025/escape.md',
    'cafe\u0301.mdx',
    'caf\u00e9.mdx',
    'CAF\u00c9.mdx',
    'INDEX.MDX',
    'index.mdx ',
    'index.mdx.',
    'index.mdx::$DATA',
    'a?.md',
    'a#.md',
    'con.md',
    'a\r\nb.md',
    'a"b.md',
    'a\u202eb.md',
    `${'a'.repeat(4096)}.md`,
    `${'a/'.repeat(2048)}x.md`,
    `${'\u00e9'.repeat(2048)}.md`,
    'images/\ud800.png',
  ])
  for (const dotDot of dotDots) for (const slash of slashes) paths.add(`${dotDot}${slash}escape.md`)
  return [...paths]
}

/** A plain relative path inside the site: what the server may accept. */
const insideSite = (path: string): boolean =>
  path.length > 0 &&
  !path.startsWith('/') &&
  !path.includes('\\') &&
  !path.includes('\0') &&
  path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')

const isRefusal = (status: number) => status >= 400 && status < 500

export const pathCorpus: Suite = {
  name: 'path corpus',
  async run({ counts, say }: SuiteContext) {
    const cases = new Cases()
    const seed = Number(process.env.DOCS_RELIABILITY_SEED ?? Date.now() % 2 ** 31)
    const server = await ServerProcess.create('paths', [
      ...['--project-deployments-per-day', '1000000', '--user-deployments-per-day', '10000000'],
      ...['--user-files-per-day', '100000000'],
    ])
    const canary = `DATA-DIR-CANARY-${randomBytes(8).toString('hex')}`
    const otherCanary = `OTHER-PROJECT-CANARY-${randomBytes(8).toString('hex')}`
    const forbidden = [canary, otherCanary, 'SQLite format 3', 'root:x:0:0']
    const statuses = new Map<number, number>()
    let served = 0
    try {
      await server.start()
      await writeFile(join(server.dataDir, 'canary.txt'), canary)
      await writeFile(join(server.dataDir, 'blobs', 'canary.txt'), canary).catch(() => undefined)
      const token = await server.token('paths@example.com')
      await createProject(server, token, 'paths')
      await createProject(server, token, 'other')
      const docs = JSON.stringify({
        name: 'Paths',
        navigation: { pages: ['index', 'guide/setup', 'caf\u00e9'] },
      })
      const site = new Map<string, Uint8Array>([
        ['docs.json', encode(docs)],
        ['index.mdx', encode('---\ntitle: Home\n---\n\n![Logo](/images/logo.svg)\n\nThe home page.\n')],
        ['guide/setup.mdx', encode('---\ntitle: Setup\n---\n\nSet it up.\n')],
        ['caf\u00e9.mdx', encode('---\ntitle: Caf\u00e9\n---\n\nCoffee.\n')],
        ['images/logo.svg', encode('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')],
      ])
      const deploymentId = await pushSite(server, token, 'paths', site)
      await pushSite(
        server,
        token,
        'other',
        new Map([
          ['docs.json', encode(JSON.stringify({ name: 'Other', navigation: { pages: ['index'] } }))],
          ['index.mdx', encode(`---\ntitle: Other\n---\n\n${otherCanary}\n`)],
        ]),
      )
      // The bytes the live deployment may serve: every file of its site manifest and their variants.
      const allowed = new Set<string>()
      const db = new SqliteDatabase(join(server.dataDir, 'docs.sqlite'), { readonly: true })
      const row = db
        .prepare('select site_manifest_sha256 from deployments where id = ?')
        .get(deploymentId) as {
        site_manifest_sha256: string
      }
      db.close()
      const store = new FilesystemBlobStore(join(server.dataDir, 'blobs'))
      const { manifest } = (await readSiteManifest(store, row.site_manifest_sha256))!
      for (const entry of Object.values(manifest.files)) allowed.add(entry.sha256)

      const host = `paths.${server.baseDomain}`
      const otherHost = `other.${server.baseDomain}`
      const checkServing = async (target: string, method = 'GET') => {
        let answer: RawAnswer
        try {
          answer = await rawRequest(server.port, target, host, method)
        } catch (error) {
          cases.check(false, () => `${method} ${show(target)}: ${(error as Error).message}`)
          return
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const leaked = forbidden.find((text) => answer.body.includes(text))
        const location = answer.headers.get('location') ?? ''
        const problem =
          answer.status >= 500
            ? `answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`
            : leaked
              ? `served "${leaked.slice(0, 24)}": an escape`
              : answer.status === 200 && method === 'GET' && !allowed.has(sha256(answer.body))
                ? `answered 200 with ${answer.body.length} bytes that are no file of the live deployment`
                : answer.status >= 300 && answer.status < 400 && !sameHost(location)
                  ? `redirects off the site to ${location}`
                  : ![200, 204, 206, 301, 302, 303, 304, 307, 308].includes(answer.status) &&
                      !isRefusal(answer.status)
                    ? `answered ${answer.status}`
                    : undefined
        if (answer.status === 200) served++
        cases.check(problem === undefined, () => `${method} ${show(target)} ${problem}`)
      }
      /** A Location that stays on this site: relative to it or naming its own host. */
      const sameHost = (location: string) => {
        if (location === '') return false
        try {
          return new URL(location, `http://${host}/`).host === host
        } catch {
          return false
        }
      }

      const corpus = servingCorpus(otherHost)
      for (const target of corpus) await checkServing(target)
      for (const target of corpus.slice(0, 60)) await checkServing(target, 'HEAD')
      say(`serving corpus: ${corpus.length} targets`)
      // Mixtures of the corpus's pieces, generated.
      const piece = fc.oneof(
        fc.constantFrom(...dotDots),
        fc.constantFrom(...slashes),
        fc.constantFrom(
          'guide',
          'setup',
          'index.html',
          'caf%C3%A9',
          'images',
          'logo.svg',
          'docs.sqlite',
          'canary.txt',
          '_assets',
          'etc',
          'passwd',
        ),
        fc.string({ maxLength: 6 }),
        fc.constantFrom('%', '%00', '%2', '?', '#', ';', ':', '@', '~', '%25', '%c0', '%ff', '\u0000', ' '),
      )
      const generated = fc.array(piece, { maxLength: 24 }).map((pieces) => `/${pieces.join('')}`)
      for (const target of fc.sample(generated, { numRuns: counts.propertyRuns, seed }))
        await checkServing(target)
      say(`serving: ${counts.propertyRuns} generated targets`)
      // Host headers: look-alikes of the site's host, of the API's, and broken ones. Another project's
      // page may answer only to a Host that names that project; nothing may answer 5xx or leak the data folder.
      const base = server.baseDomain
      const hosts = [
        `PATHS.${base.toUpperCase()}`,
        `paths.${base}.`,
        `paths.${base}.evil.example`,
        `evil.example.paths.${base}`,
        `paths..${base}`,
        `.paths.${base}`,
        `paths.${base}:80`,
        `paths.${base}@other.${base}`,
        `other.${base}#paths.${base}`,
        `paths.${base}/../other`,
        `paths%2e${base}`,
        `paths.${base}\u0000`,
        `p\u0430ths.${base}`,
        `xn--pths-8cd.${base}`,
        `${'a'.repeat(4096)}.${base}`,
        `${'a.'.repeat(2000)}${base}`,
        `[::1]:${server.port}`,
        `127.0.0.1:${server.port}`,
        `localhost`,
        '',
        ' ',
        `../../docs.sqlite`,
      ]
      for (const hostHeader of hosts) {
        const answer = await rawRequest(server.port, '/', hostHeader).catch((error: unknown) => ({
          status: 0,
          headers: new Map<string, string>(),
          body: Buffer.from(`no answer: ${(error as Error).message}`),
        }))
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const leaked = [canary, 'SQLite format 3', 'root:x:0:0'].find((text) => answer.body.includes(text))
        const othersPage = answer.body.includes(otherCanary) && !/^other\./i.test(hostHeader)
        cases.check(
          answer.status > 0 && answer.status < 500 && !leaked && !othersPage,
          () =>
            `Host ${show(hostHeader)} answered ${answer.status}${leaked ? ` with "${leaked}"` : ''}${othersPage ? " with the other project's page" : ''}: ${answer.body.toString('utf8').slice(0, 120)}`,
        )
      }
      const twoHosts = await rawRequest(server.port, '/', `other.${base}`, 'GET', { Host: `paths.${base}` })
      cases.check(twoHosts.status === 400, () => `two Host headers answered ${twoHosts.status}, not 400`)

      // Upload paths: the manifest of a new deployment, then a batch part of that name.
      const deploymentsPath = '/projects/slug/paths/deployments'
      const uploads = [
        ...uploadCorpus(),
        ...fc.sample(
          generated.map((path) => path.slice(1)),
          {
            numRuns: Math.ceil(counts.propertyRuns / 4),
            seed,
          },
        ),
      ]
      let accepted = 0
      for (const path of uploads) {
        const bytes = encode(`# ${path.length}\n`)
        const created = await server.api('POST', deploymentsPath, token, {
          branch: 'main',
          files: [
            { path: 'docs.json', sha256: sha256(encode(docs)), size: encode(docs).length },
            { path, sha256: sha256(bytes), size: bytes.length },
          ],
        })
        const safe = insideSite(path)
        cases.check(
          isRefusal(created.status) || (created.status === 201 && safe),
          () =>
            `manifest path ${show(path)} answered ${created.status}${created.status === 201 ? ' although it leaves the site' : `: ${created.text().slice(0, 200)}`}`,
        )
        if (created.status !== 201) continue
        accepted++
        const { deployment } = created.json<{ deployment: { id: string } }>()
        const body = multipartBody([{ name: path, bytes }])
        const uploaded = await http(server.port, 'POST', `${deploymentsPath}/${deployment.id}/files/batch`, {
          host: server.baseDomain,
          headers: { authorization: `Bearer ${token}`, ...body.headers },
          body: body.payload,
        }).catch((error: unknown) => ({ status: 0, text: () => (error as Error).message }))
        cases.check(
          uploaded.status === 200 || isRefusal(uploaded.status),
          () => `batch part ${show(path)} answered ${uploaded.status}: ${uploaded.text().slice(0, 200)}`,
        )
      }
      // Part names and chunk hashes that name nothing in the manifest.
      const open = await server.api('POST', deploymentsPath, token, {
        branch: 'main',
        files: [{ path: 'docs.json', sha256: sha256(encode(docs)), size: encode(docs).length }],
      })
      const openId = open.json<{ deployment: { id: string } }>().deployment.id
      for (const path of uploadCorpus().slice(0, 40)) {
        const body = multipartBody([{ name: path, bytes: encode('x') }])
        const uploaded = await http(server.port, 'POST', `${deploymentsPath}/${openId}/files/batch`, {
          host: server.baseDomain,
          headers: { authorization: `Bearer ${token}`, ...body.headers },
          body: body.payload,
        }).catch((error: unknown) => ({ status: 0, text: () => (error as Error).message }))
        cases.check(
          isRefusal(uploaded.status),
          () => `a part named ${show(path)} outside the manifest answered ${uploaded.status}`,
        )
      }
      for (const target of corpus.filter((path) => path.startsWith('/')).slice(0, 200)) {
        const chunk = `${deploymentsPath}/${openId}/files/chunks${target}?offset=0`
        const answer = await rawRequest(server.port, chunk, server.baseDomain, 'PUT', {
          authorization: `Bearer ${token}`,
          'content-type': 'application/octet-stream',
          'content-length': '0',
        }).catch((error: unknown) => ({ status: 0, body: Buffer.from((error as Error).message) }))
        cases.check(
          isRefusal(answer.status),
          () =>
            `PUT chunk ${show(target)} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`,
        )
      }
      say(`upload paths: ${uploads.length}, ${accepted} accepted`)
      return cases.report({
        'serving targets': corpus.length + 60 + counts.propertyRuns,
        'Host headers': hosts.length + 1,
        'upload paths': uploads.length,
        'accepted (plain paths)': accepted,
        'answers 200': served,
        statuses: [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' '),
        seed,
      })
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).message}`)
      return cases.report({})
    } finally {
      await server.dispose()
    }
  },
}

/** A path as a failure message shows it: escaped, and cut when long. */
function show(path: string): string {
  const shown = JSON.stringify(path)
  return shown.length > 120 ? `${shown.slice(0, 100)}…(${path.length} chars)` : shown
}
