/**
 * Webhook secrets of GitLab and Gitea/Forgejo projects are derived, not stored: HMAC-SHA256 of the
 * project id under the server's webhook key. The database holds nothing that verifies a delivery, a
 * project's secret differs from every other's, and rotating the key rotates them all.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The configured key, else the data dir's key file (made once, mode 0600). */
export function loadWebhookKey(configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) return configured
  const path = join(dataDir, 'git-webhook.key')
  try {
    return readFileSync(path, 'utf8').trim()
  } catch {
    const key = randomBytes(32).toString('base64url')
    try {
      writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' })
    } catch {
      // Another process made it first: use theirs.
      return readFileSync(path, 'utf8').trim()
    }
    chmodSync(path, 0o600)
    return key
  }
}

export const webhookSecretOf = (key: string, projectId: string): string =>
  `whsec_${createHmac('sha256', key).update(`git-webhook:${projectId}`).digest('base64url')}`
