/**
 * Response headers, on a real `docs-server`: every answer of a site (page, asset, 404), the API (JSON,
 * errors, 404s) and the dashboard carries `X-Content-Type-Options: nosniff`, and each that a browser
 * would show as a document (everything on the API host; a site's pages, SVG and XML) a
 * Content-Security-Policy with `frame-ancestors`; the API grants no CORS beyond what the CLI and dashboard need (they need none:
 * the CLI is no browser, the dashboard is same-origin), so an Origin from elsewhere, preflight or not,
 * gets no `Access-Control-Allow-Origin`.
 */
import { type HttpAnswer, http } from '../e2e/replicas.js'
import { versionSite } from './load.js'
import { createProject, pushSite } from './push.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite } from './suite.js'

const hostileOrigin = 'https://evil.example'

const header = (answer: HttpAnswer, name: string) => {
  const value = answer.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

export const responseHeaders: Suite = {
  name: 'response headers',
  async run({ say }) {
    const cases = new Cases()
    const server = await ServerProcess.create('headers')
    let checked = 0
    try {
      await server.start()
      const token = await server.token('headers@example.com')
      await createProject(server, token, 'headed')
      await pushSite(server, token, 'headed', versionSite(1, 2))
      const site = `headed.${server.baseDomain}`
      const api = server.baseDomain
      const auth = { authorization: `Bearer ${token}`, origin: hostileOrigin }
      const answers: { what: string; kind: 'site' | 'api' | 'dashboard'; answer: HttpAnswer }[] = []
      const get = async (
        kind: 'site' | 'api' | 'dashboard',
        what: string,
        host: string,
        method: string,
        path: string,
        headers: Record<string, string> = {},
      ) => {
        const answer = await http(server.port, method, path, {
          host,
          headers: { origin: hostileOrigin, ...headers },
        })
        answers.push({ what: `${kind} ${what}, ${method} ${path} (${answer.status})`, kind, answer })
        return answer
      }
      await get('site', 'page', site, 'GET', '/')
      await get('site', 'page', site, 'GET', '/page-1/')
      await get('site', 'asset', site, 'GET', '/style.css')
      await get('site', 'image', site, 'GET', '/images/version.svg')
      await get('site', '404', site, 'GET', '/no-such-page/')
      await get('site', 'unknown site', `nobody.${server.baseDomain}`, 'GET', '/')
      await get('api', 'list', api, 'GET', '/projects/', auth)
      await get('api', 'unauthenticated', api, 'GET', '/projects/')
      await get('api', 'no route', api, 'GET', '/no-such-route')
      await get('api', 'bad body', api, 'POST', '/projects/', { ...auth, 'content-type': 'application/json' })
      await get('api', 'health', api, 'GET', '/health')
      await get('api', 'preflight', api, 'OPTIONS', '/projects/', {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      })
      await get('dashboard', 'dashboard', api, 'GET', '/dashboard', auth)
      for (const { what, kind, answer } of answers) {
        checked++
        cases.check(
          header(answer, 'x-content-type-options') === 'nosniff',
          () => `${what}: X-Content-Type-Options is ${header(answer, 'x-content-type-options') ?? 'missing'}`,
        )
        // A policy matters where a browser makes a document of the answer: every API and dashboard
        // answer, a site's pages and its active files (SVG, XML); a stylesheet or a font needs none.
        const contentType = header(answer, 'content-type') ?? ''
        if (kind === 'site' && !/html|xml/.test(contentType)) continue
        const csp = header(answer, 'content-security-policy') ?? ''
        cases.check(
          /(^|;)\s*frame-ancestors\s/.test(csp),
          () => `${what}: Content-Security-Policy has no frame-ancestors (${csp || 'no CSP'})`,
        )
        if (kind !== 'site')
          cases.check(
            header(answer, 'access-control-allow-origin') === undefined &&
              header(answer, 'access-control-allow-credentials') === undefined,
            () =>
              `${what}: an Origin from elsewhere got Access-Control-Allow-Origin ${header(answer, 'access-control-allow-origin')}`,
          )
      }
      say(`response headers: ${checked} answers checked`)
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).stack ?? String(error)}`)
    } finally {
      await server.dispose()
    }
    return cases.report({ 'answers checked': `${checked} (sites, API, dashboard)` })
  },
}
