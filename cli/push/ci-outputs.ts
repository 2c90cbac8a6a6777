/**
 * What a push hands to the CI job that ran it, so a workflow can use the URL (comment it on a pull
 * request, link it from the run): GitHub Actions step outputs (`$GITHUB_OUTPUT`) and the job summary
 * (`$GITHUB_STEP_SUMMARY`). Elsewhere nothing is written; the URL is on stdout as always.
 */
import { appendFile } from 'node:fs/promises'
import type { Deployment } from '../api.js'

export interface PushOutcome {
  deployment: Deployment
  /** The URL a reader opens: the live site, the preview, or (not waited for) where it will be live. */
  url: string | null
  slug: string
}

/** `name=value` lines for `$GITHUB_OUTPUT`; values here are ids, states and URLs, never multi-line. */
export function githubOutputLines(outcome: PushOutcome): string {
  const { deployment } = outcome
  const outputs: Record<string, string> = {
    'deployment-id': deployment.id,
    status: deployment.status,
    live: String(deployment.live),
    url: outcome.url ?? '',
    'preview-url': deployment.previewUrl ?? '',
  }
  return Object.entries(outputs)
    .map(([name, value]) => `${name}=${value.replace(/[\r\n]+/g, ' ')}\n`)
    .join('')
}

export function jobSummary(outcome: PushOutcome): string {
  const { deployment } = outcome
  const what = deployment.live ? 'Live' : deployment.status === 'ready' ? 'Preview' : 'Building'
  return [
    `### Docs: ${outcome.slug}`,
    '',
    '| | |',
    '|---|---|',
    `| ${what} | ${outcome.url ? `<${outcome.url}>` : 'not yet'} |`,
    `| Deployment | \`${deployment.id}\` (${deployment.status}) |`,
    `| Branch | \`${deployment.branch}\` |`,
    '',
    '',
  ].join('\n')
}

/** Append the outputs for the CI provider named by the environment; answers what was written to. */
export async function writeCiOutputs(outcome: PushOutcome, env: NodeJS.ProcessEnv): Promise<string[]> {
  const written: string[] = []
  if (env.GITHUB_OUTPUT) {
    await appendFile(env.GITHUB_OUTPUT, githubOutputLines(outcome))
    written.push('$GITHUB_OUTPUT')
  }
  if (env.GITHUB_STEP_SUMMARY) {
    await appendFile(env.GITHUB_STEP_SUMMARY, jobSummary(outcome))
    written.push('the job summary')
  }
  return written
}
