/**
 * What every provider's webhook comes down to: who sent it (verified), which delivery it is, and, for
 * a push, the branch and commit. Each provider's file turns its own headers and payload into this.
 */
import type { IncomingHttpHeaders } from 'node:http'

export interface PushEvent {
  kind: 'push'
  branch: string
  /** The new head; the all-zero SHA when the branch was deleted. */
  commitSha: string
  commitMessage: string | null
  /** `Name <email>` of the head commit's author. */
  commitAuthor: string | null
  forced: boolean
  /** Clone and web URLs of the repository, normalised later to match a connection. */
  repositoryUrls: string[]
  githubInstallationId: string | null
}

/** A GitHub App installed on, or removed from, repositories. */
export interface InstallationEvent {
  kind: 'installation'
  installationId: string
  installed: boolean
  /** `owner/name` of each repository the event names. */
  repositories: string[]
}

/**
 * A pull/merge request opened, given a new head commit, reopened (`update`) or closed or merged
 * (`close`), from the provider's own event: its preview follows its head commit.
 */
export interface PullRequestEvent {
  kind: 'pull-request'
  action: 'update' | 'close'
  number: number
  /** The request's source branch (in the fork, for a fork's request). */
  headBranch: string
  headSha: string
  /** The head is in another repository than the one the request merges into. */
  fromFork: boolean
  title: string | null
  author: string | null
  /** Clone and web URLs of the repository the request merges into. */
  repositoryUrls: string[]
  githubInstallationId: string | null
}

export type WebhookEvent =
  | PushEvent
  | PullRequestEvent
  | InstallationEvent
  | { kind: 'ignored'; reason: string }

/** Why a delivery is refused before any of it is believed (401 or 400), or its parsed event. */
export type Verified = { ok: true; deliveryId: string } | { ok: false; status: 400 | 401; reason: string }

export const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name]
  return Array.isArray(value) ? undefined : value
}

export const authorOf = (
  author: { name?: string; email?: string | null } | null | undefined,
): string | null => (author?.name ? (author.email ? `${author.name} <${author.email}>` : author.name) : null)

/** `refs/heads/main` → `main`; tags and other refs → undefined (they never deploy). */
export const branchOfRef = (ref: unknown): string | undefined =>
  typeof ref === 'string' && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const stringsOf = (...values: unknown[]): string[] =>
  values.filter((value): value is string => typeof value === 'string' && value !== '')
