/**
 * The stored session of `docsctl login`: one file, readable only by its owner, replaced atomically so
 * that a crash mid-write never leaves half a token behind.
 */
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface StoredSession {
  /** The API the tokens belong to; a session is never sent to another server. */
  apiUrl: string
  accessToken: string
  refreshToken: string | null
  /** ISO 8601 time the access token stops working, when the server said. */
  expiresAt: string | null
  /** Where to refresh: the token endpoint found by discovery at login. */
  tokenEndpoint: string
  email: string | null
}

/** `DOCSCTL_CONFIG_DIR`, else `%APPDATA%\docsctl` on Windows, else `$XDG_CONFIG_HOME` or `~/.config`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DOCSCTL_CONFIG_DIR) return env.DOCSCTL_CONFIG_DIR
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'docsctl')
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'docsctl')
}

export const credentialsPath = (env: NodeJS.ProcessEnv = process.env): string =>
  join(configDir(env), 'credentials.json')

const isSession = (value: unknown): value is StoredSession => {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return (
    typeof record.apiUrl === 'string' &&
    typeof record.accessToken === 'string' &&
    typeof record.tokenEndpoint === 'string' &&
    (record.refreshToken === null || typeof record.refreshToken === 'string')
  )
}

/** The stored session, or `undefined` when there is none or the file is not one we wrote. */
export async function readSession(env: NodeJS.ProcessEnv = process.env): Promise<StoredSession | undefined> {
  let text: string
  try {
    text = await readFile(credentialsPath(env), 'utf8')
  } catch {
    return undefined
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (!isSession(parsed)) return undefined
    return {
      apiUrl: parsed.apiUrl,
      accessToken: parsed.accessToken,
      refreshToken: parsed.refreshToken,
      expiresAt: typeof parsed.expiresAt === 'string' ? parsed.expiresAt : null,
      tokenEndpoint: parsed.tokenEndpoint,
      email: typeof parsed.email === 'string' ? parsed.email : null,
    }
  } catch {
    return undefined
  }
}

/** Write to a temp file created with mode 0600 in the same folder, then rename over the old one. */
export async function writeSession(
  session: StoredSession,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const dir = configDir(env)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const target = credentialsPath(env)
  const temp = join(dir, `.credentials.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
    // The umask cannot widen 0600, but an existing ACL-less filesystem may ignore `mode`; say it again.
    await chmod(temp, 0o600)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Delete the stored session; `false` when there was none. */
export async function deleteSession(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  try {
    await rm(credentialsPath(env))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
