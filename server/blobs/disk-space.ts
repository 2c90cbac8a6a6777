/**
 * Whether the data folder's disk has room to write. A server started on a full disk could not even open
 * its SQLite database (its shared-memory file cannot grow: SQLITE_IOERR_SHMSIZE) and crashed at start;
 * it now starts read-only instead: sites are served, changes refused until space is freed and the
 * server restarted.
 */
import { statfs } from 'node:fs/promises'
import type { ServerConfig } from '../config.js'

/** Why the server is read-only, in words for the log and for API answers; undefined when it is not. */
export async function readOnlyReason(
  config: Pick<ServerConfig, 'dataDir' | 'minFreeDiskMb'>,
): Promise<string | undefined> {
  if (config.minFreeDiskMb === 0) return undefined
  const disk = await statfs(config.dataDir)
  const freeMb = Math.floor((disk.bavail * disk.bsize) / 1024 ** 2)
  if (freeMb >= config.minFreeDiskMb) return undefined
  return `the disk of its data folder has ${freeMb} MB free, under the ${config.minFreeDiskMb} MB it needs (--min-free-disk)`
}
