/**
 * The GitHub App's side of a deploy: an installation access token for each fetch (asked of the
 * configured API address with the App's JWT by @octokit/auth-app) and a commit status reporting the
 * build and its URL. https://docs.github.com/rest/commits/statuses#create-a-commit-status
 */
import { createAppAuth } from '@octokit/auth-app'
import { request } from '@octokit/request'
import { packageVersion } from '../../lib/version.js'
import type { GitConfig } from './settings.js'

export interface CommitStatus {
  state: 'pending' | 'success' | 'failure' | 'error'
  targetUrl: string | null
  description: string
  context: string
}

export class GitHubApp {
  readonly #request: typeof request
  readonly #auth: ReturnType<typeof createAppAuth>

  constructor(settings: { appId: string; privateKey: string; apiUrl: string }) {
    this.#request = request.defaults({
      baseUrl: settings.apiUrl,
      headers: { 'user-agent': `docs-server/${packageVersion}` },
    })
    this.#auth = createAppAuth({
      appId: settings.appId,
      privateKey: settings.privateKey,
      request: this.#request,
    })
  }

  /** The App, when the server is configured with one. */
  static fromConfig(config: GitConfig['github']): GitHubApp | undefined {
    if (!config.appId || !config.privateKey) return undefined
    return new GitHubApp({ appId: config.appId, privateKey: config.privateKey, apiUrl: config.apiUrl })
  }

  /** A token that can read the installation's repositories for about an hour (cached by auth-app). */
  async installationToken(installationId: string): Promise<string> {
    const auth = await this.#auth({ type: 'installation', installationId: Number(installationId) })
    return auth.token
  }

  async setCommitStatus(token: string, fullName: string, sha: string, status: CommitStatus): Promise<void> {
    const [owner = '', repo = ''] = fullName.split('/')
    await this.#request('POST /repos/{owner}/{repo}/statuses/{sha}', {
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
