/**
 * The dashboard's only way to data: the REST API, with the session cookie and the CSRF header the
 * server put in the page. Errors arrive as the API's `{error, issues}`.
 */
import type { Issue } from './types.js'

const csrfToken = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: Issue[],
  ) {
    super(message)
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken }
  const init: RequestInit = { method, headers, credentials: 'same-origin' }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  const response = await fetch(path, init)
  if (response.status === 204) return undefined as T
  const answer = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as {
    error?: string
    issues?: Issue[]
  }
  if (!response.ok)
    throw new ApiFailure(response.status, answer.error ?? `HTTP ${response.status}`, answer.issues ?? [])
  return answer as T
}

export const signOut = () => api<undefined>('POST', '/dashboard/sign-out')

/** A file the API answers with (a CSV export), as a Blob; failures as `ApiFailure`. */
export async function apiFile(path: string): Promise<Blob> {
  const response = await fetch(path, { headers: { 'x-csrf-token': csrfToken }, credentials: 'same-origin' })
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string; issues?: Issue[] }
    throw new ApiFailure(response.status, answer.error ?? `HTTP ${response.status}`, answer.issues ?? [])
  }
  return response.blob()
}
