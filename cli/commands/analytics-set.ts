import { Command, Option, UsageError } from 'clipanion'
import pc from 'picocolors'
import { defaultPosthogHost } from '../../schemas/api/index.js'
import { CommandFailure, reportFailure } from '../auth/failure.js'
import { apiUrlOption, projectOption, runForProject } from '../project-command.js'

/** A problem with a PostHog project key, in words that say what to do; `undefined` when it is fine. */
export function posthogKeyProblem(key: string): string | undefined {
  if (key.startsWith('phx_'))
    return 'That is a PostHog personal API key (phx_…), which can read and change your whole PostHog account; it must never be published in a site. Use the project API key (phc_…) from PostHog → Project settings.'
  if (!key.startsWith('phc_'))
    return 'A PostHog project API key starts with "phc_"; copy it from PostHog → Project settings → Project API key.'
  if (key.length < 24)
    return `The key is ${key.length} characters long; a PostHog project API key has at least 24. Copy the whole key.`
  if (!/^[A-Za-z0-9_-]+$/.test(key)) return 'A PostHog project API key has only letters, digits, "_" and "-".'
  return undefined
}

/** The host as stored (no trailing slash), or a problem message. */
export function normalisePosthogHost(host: string): { host: string } | { problem: string } {
  let url: URL
  try {
    url = new URL(host)
  } catch {
    return { problem: `"${host}" is not a URL; give the ingestion host, e.g. --host ${defaultPosthogHost}` }
  }
  if (url.protocol !== 'https:') return { problem: `The host must be an https:// URL, not "${host}".` }
  if (url.username || url.password || url.search || url.hash)
    return {
      problem: `The host must be a plain https:// address without credentials, query or fragment, not "${host}".`,
    }
  return { host: url.toString().replace(/\/+$/, '') }
}

export class AnalyticsSetCommand extends Command {
  static override paths = [['analytics', 'set']]
  static override usage = Command.Usage({
    category: 'Analytics',
    description: "Send a project's page views to an analytics provider",
    details: `
      Stores the provider's public project key (and host) for the project; the next deployment's pages
      load the provider's script with them. Only \`posthog\` is supported. The key must be the public
      project key (phc_…, at least 24 characters), never a personal API key (phx_…).
    `,
    examples: [
      ['Use PostHog (US cloud)', 'docsctl analytics set posthog phc_0123456789abcdefghijklmnop'],
      [
        'Use PostHog EU',
        'docsctl analytics set posthog phc_0123456789abcdefghijklmnop --host https://eu.i.posthog.com',
      ],
    ],
  })

  provider = Option.String({ name: 'provider' })
  key = Option.String({ name: 'key' })
  host = Option.String('--host', {
    description: `Ingestion host, an https:// URL (default ${defaultPosthogHost})`,
  })
  project = projectOption()
  apiUrl = apiUrlOption()

  override async execute(): Promise<number> {
    if (this.provider !== 'posthog')
      throw new UsageError(
        `Unknown analytics provider "${this.provider}"; the supported provider is posthog.`,
      )
    const keyProblem = posthogKeyProblem(this.key)
    if (keyProblem) return reportFailure(this.context, new CommandFailure(keyProblem))
    const host = normalisePosthogHost(this.host ?? defaultPosthogHost)
    if ('problem' in host) return reportFailure(this.context, new CommandFailure(host.problem))
    return runForProject(this.context, this, async (client, project) => {
      const config = await client.setPosthog(project.id, { key: this.key, host: host.host })
      this.context.stdout.write(
        `${pc.green('Saved')}: ${project.slug} sends page views to PostHog at ${config.posthog?.host ?? host.host}. Push again to update the live site.\n`,
      )
      return 0
    })
  }
}
