/**
 * One site built both ways a user can: `docsctl build --lenient` (what `dev` previews and `build`
 * exports) and `docsctl push` to a real `docs-server` (what readers get). Every file the export holds
 * is read back from the live site by its path, so the two paths can never drift apart unseen.
 */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { type CliRun, cleanEnv, type DocsServer, runCli } from './docs-server.js'

/** Made per request host by the server (absolute URLs), so never the same bytes as an export's. */
const HOST_FILES = new Set(['sitemap.xml', 'robots.txt', '.docsctl-build'])

export interface BothWays {
  push: CliRun
  build: CliRun
  /** The project's deploy key, for the next push of the same project. */
  deployKey: string
  /** The export's files, by site path. */
  exported: Map<string, Buffer>
  /** Paths whose live bytes differ from the export's (or that the live site does not serve). */
  differing: { path: string; status: number }[]
}

/** Where a reader finds an exported file: a page's `index.html` at its folder's URL. */
const urlPathOf = (path: string): string =>
  `/${path
    .replace(/(^|\/)index\.html$/, '$1')
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`

/**
 * The server answers a redirect of docs.json with its status; the export holds a page that refreshes
 * to the same place, for hosts that read no redirect rules.
 */
function redirectsAlike(url: string, location: string | null, exported: string): boolean {
  const refresh = /<meta http-equiv="refresh" content="0; url=([^"]*)">/.exec(exported)?.[1]
  if (!location || refresh === undefined) return false
  const base = `http://site${url}`
  // `/guide` and `/guide/` are one page: the server answers the first with a redirect to the second.
  const page = (href: string) => {
    const parsed = new URL(href, base)
    return `${parsed.origin}${parsed.pathname.replace(/\/$/, '')}${parsed.search}${parsed.hash}`
  }
  return page(refresh.replaceAll('&amp;', '&')) === page(location)
}

async function filesUnder(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(relative(root, path).split(sep).join('/'), await readFile(path))
  }
  return files
}

/** Session token of `email` on `server`: creates the project `slug` and a deploy key for it. */
async function deployKeyFor(server: DocsServer, email: string, slug: string): Promise<string> {
  const token = await server.tokenFor(email)
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${server.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  const project = await call<{ id: string }>('/projects/', { name: slug, slug })
  return (await call<{ token: string }>(`/projects/${project.id}/deploy-keys`, { name: 'both-ways' })).token
}

/**
 * Builds `siteDir` into `outDir` with `docsctl build --lenient`, pushes it to `server` as project
 * `slug` (created for `email`), then fetches every exported file from the live site.
 */
export async function buildBothWays(
  server: DocsServer,
  siteDir: string,
  options: { slug: string; outDir: string; email?: string; deployKey?: string },
): Promise<BothWays> {
  const env = cleanEnv({ DOCSCTL_API_URL: server.apiUrl })
  await rm(options.outDir, { recursive: true, force: true })
  const build = await runCli(['build', siteDir, '--lenient', '--out', options.outDir], { env })
  if (build.code !== 0) throw new Error(`docsctl build failed:\n${build.stderr}`)
  const deployKey =
    options.deployKey ?? (await deployKeyFor(server, options.email ?? 'both-ways@example.com', options.slug))
  const push = await runCli(['push', siteDir, '--project', options.slug, '--api-key', deployKey], { env })
  const exported = await filesUnder(options.outDir)
  const differing: BothWays['differing'] = []
  if (push.code === 0) {
    for (const [path, bytes] of exported) {
      if (HOST_FILES.has(path)) continue
      const url = urlPathOf(path)
      const response = await server.fetchSite(options.slug, url)
      const live = Buffer.from(await response.arrayBuffer())
      const same =
        response.status === 200
          ? live.equals(bytes)
          : redirectsAlike(url, response.headers.get('location'), bytes.toString('utf8'))
      if (!same) differing.push({ path, status: response.status })
    }
  }
  return { push, build, deployKey, exported, differing }
}

/** A copy of the site `from` at `to`, without the docs.json keys strict validation asks an author to remove. */
export async function copySiteWithout(
  from: string,
  to: string,
  drop: readonly string[] = [],
): Promise<string> {
  await cp(from, to, { recursive: true })
  const config = JSON.parse(await readFile(join(to, 'docs.json'), 'utf8')) as Record<string, unknown>
  for (const key of drop) delete config[key]
  await writeFile(join(to, 'docs.json'), JSON.stringify(config, null, 2))
  return to
}
