/**
 * A docs server set up for a GitLab server (a real Git server on loopback with the stand-in GitLab API
 * on its own origin, as on gitlab.com), a bot token that opens its private repositories, and a signed-in
 * owner's project. The security tests start here and change one setting at a time.
 */
import type { TestContext } from 'node:test'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../../server/app.js'
import type { ServerConfig } from '../../../server/config.js'
import type { GitConfig } from '../../../server/git/settings.js'
import { bearer, createProject, signIn, testConfig } from '../helper.js'
import { gitlabPush, zeroSha } from './deliveries.js'
import { ForgeApi } from './forge-api.js'
import { GitServer } from './git-server.js'

export const botToken = 'bot-token-0123456789'

export const docsJson = (slug: string) =>
  JSON.stringify({ name: 'Acme', slug, navigation: { groups: [{ group: 'Start', pages: ['index'] }] } })

export const page = (text: string) => `---\ntitle: Home\n---\n\n${text}\n`

export interface GitWorld {
  app: FastifyInstance
  /** The GitLab server the docs server is set up for. */
  gitlab: GitServer
  forge: ForgeApi
  project: { id: string; slug: string }
  /** Every line the server logged. */
  logLines: string[]
  /** `PUT /projects/:id/git` as the project's owner. */
  connect(payload: object): Promise<LightMyRequestResponse>
  /** A signed GitLab push of `after` to `branch` of the connected repository, delivered. */
  push(
    repositoryUrl: string,
    branch: string,
    after: string,
    options?: { before?: string; deliveryId?: string },
  ): Promise<LightMyRequestResponse>
  /** Runs the delivery queue to its end; answers the latest delivery. */
  settle(): Promise<{ status: string; detail: string | null; deployment_id: string | null }>
  site(host?: string): Promise<{ status: number; body: string }>
}

export async function gitlabWorld(
  t: Pick<TestContext, 'after'>,
  git: Partial<GitConfig> = {},
  overrides: Partial<ServerConfig> = {},
): Promise<GitWorld> {
  const gitlab = await GitServer.start(t)
  const forge = await ForgeApi.start(t, botToken)
  gitlab.proxy('/api/v4', `${forge.url}/api/v4`)
  const base = await testConfig(t, 'sqlite', overrides)
  const config: ServerConfig = {
    ...base,
    git: { ...base.git, gitlab: { token: botToken, apiUrl: `${gitlab.origin}/api/v4` }, ...git },
  }
  const logLines: string[] = []
  const app = await buildApp(config, {
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
  })
  t.after(() => app.close())
  const token = await signIn(app)
  const project = await createProject(app, token, 'acme')
  const secret = async () => {
    const settings = await app.inject({ url: `/projects/${project.id}/git`, headers: bearer(token) })
    return settings.json().connection.webhook.secret as string
  }
  return {
    app,
    gitlab,
    forge,
    project,
    logLines,
    connect: (payload) =>
      app.inject({
        method: 'PUT',
        url: `/projects/${project.id}/git`,
        headers: bearer(token),
        payload: { provider: 'gitlab', ...payload },
      }),
    async push(repositoryUrl, branch, after, options = {}) {
      const delivery = gitlabPush(
        await secret(),
        { repositoryUrl, branch, before: options.before ?? zeroSha, after },
        options.deliveryId,
      )
      return app.inject({
        method: 'POST',
        url: `/webhooks/gitlab/${project.id}`,
        headers: delivery.headers,
        payload: delivery.payload,
      })
    },
    async settle() {
      await app.gitDeployer.idle()
      const [latest] = await app.repos.git.recentDeliveries(project.id, 1)
      if (!latest) throw new Error('no delivery')
      return latest
    },
    async site(host = 'acme.localhost:8080') {
      const response = await app.inject({ method: 'GET', url: '/', headers: { host } })
      return { status: response.statusCode, body: response.body }
    },
  }
}
