/**
 * Webhook secrets of GitLab and Gitea/Forgejo projects are derived, not stored: HMAC-SHA256 of the
 * project id under the server's webhook key (one for all replicas). A project's secret differs from
 * every other's, and rotating the key rotates them all.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Repositories } from '../db/repositories/index.js'

/**
 * The configured key, else the one in the database, which every replica shares (a key per replica
 * made a delivery signed for one replica fail on the others). It is made once, by the first replica
 * to start: from the key file an earlier version left in its data dir, so the webhooks already set up
 * keep working, else from random bytes. Read-only (a full disk), nothing is stored: a key that is not
 * there yet is made for this process alone, and the webhook deliveries it would check are refused anyway.
 */
export async function loadWebhookKey(
  configured: string | undefined,
  secrets: Repositories['sharedSecrets'],
  options: { dataDir: string; readOnly: boolean },
): Promise<string> {
  if (configured !== undefined) return configured
  const candidate = () => keyFileOf(options.dataDir) ?? randomBytes(32).toString('base64url')
  if (options.readOnly) return (await secrets.find('git-webhook-key')) ?? candidate()
  return secrets.findOrStore('git-webhook-key', candidate)
}

/** The `git-webhook.key` an earlier version made in the data dir, if there is one. */
function keyFileOf(dataDir: string): string | undefined {
  try {
    const key = readFileSync(join(dataDir, 'git-webhook.key'), 'utf8').trim()
    return key.length >= 32 ? key : undefined
  } catch {
    return undefined
  }
}

export const webhookSecretOf = (key: string, projectId: string): string =>
  `whsec_${createHmac('sha256', key).update(`git-webhook:${projectId}`).digest('base64url')}`
