/**
 * The GitHub App's side of a deploy: an installation access token for each fetch (asked of the
 * configured API address with the App's JWT by @octokit/auth-app) and a commit status reporting the
 * build and its URL. https://docs.github.com/rest/commits/statuses#create-a-commit-status
 */
import type { createAppAuth } from '@octokit/auth-app'
import type { request } from '@octokit/request'
import { packageVersion } from '../../lib/version.js'
import type { GitConfig } from './settings.js'

export interface CommitStatus {
  state: 'pending' | 'success' | 'failure' | 'error'
  targetUrl: string | null
  description: string
  context: string
}

interface Octokit {
  request: typeof request
  auth: ReturnType<typeof createAppAuth>
}

export class GitHubApp {
  readonly #settings: { appId: string; privateKey: string; apiUrl: string }
  /** The Octokit packages load with the App's first call, not with every server start. */
  #octokit: Promise<Octokit> | undefined

  constructor(settings: { appId: string; privateKey: string; apiUrl: string }) {
    this.#settings = settings
  }

  #client(): Promise<Octokit> {
    this.#octokit ??= Promise.all([import('@octokit/auth-app'), import('@octokit/request')]).then(
      ([{ createAppAuth }, { request }]) => {
        const appRequest = request.defaults({
          baseUrl: this.#settings.apiUrl,
          headers: { 'user-agent': `docs-server/${packageVersion}` },
        })
        const auth = createAppAuth({
          appId: this.#settings.appId,
          privateKey: this.#settings.privateKey,
          request: appRequest,
        })
        return { request: appRequest, auth }
      },
    )
    return this.#octokit
  }

  /** The App, when the server is configured with one. */
  static fromConfig(config: GitConfig['github']): GitHubApp | undefined {
    if (!config.appId || !config.privateKey) return undefined
    return new GitHubApp({ appId: config.appId, privateKey: config.privateKey, apiUrl: config.apiUrl })
  }

  /** A token that can read the installation's repositories for about an hour (cached by auth-app). */
  async installationToken(installationId: string): Promise<string> {
    const { auth: appAuth } = await this.#client()
    const auth = await appAuth({ type: 'installation', installationId: Number(installationId) })
    return auth.token
  }

  async setCommitStatus(token: string, fullName: string, sha: string, status: CommitStatus): Promise<void> {
    const [owner = '', repo = ''] = fullName.split('/')
    const { request: appRequest } = await this.#client()
    await appRequest('POST /repos/{owner}/{repo}/statuses/{sha}', {
      owner,
      repo,
      sha,
      state: status.state,
      ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
      description: status.description.slice(0, 140),
      context: status.context,
      headers: { authorization: `token ${token}` },
    })
  }
}
