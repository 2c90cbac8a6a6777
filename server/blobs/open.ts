/** The blob store a server's settings choose: the data dir's `blobs/` folder, or an S3 bucket. */
import { join } from 'node:path'
import type { ServerConfig } from '../config.js'
import { FilesystemBlobStore } from './filesystem.js'
import type { BlobStore } from './store.js'

/**
 * `localRoot` moves an S3 store's read cache and upload spool out of the data dir (a one-off command
 * beside a running server must not empty the server's cache) and turns the cache off.
 */
export async function openBlobStore(
  config: Pick<ServerConfig, 'dataDir' | 'blobStore' | 'blobCacheBytes'>,
  options: { localRoot?: string } = {},
): Promise<BlobStore> {
  if (config.blobStore.kind === 's3') {
    // The AWS SDK loads only for a bucket: a server on its local folder starts without it.
    const { S3BlobStore } = await import('./s3.js')
    const localRoot = options.localRoot ?? join(config.dataDir, 's3-blobs')
    return new S3BlobStore(config.blobStore, localRoot, options.localRoot ? 0 : config.blobCacheBytes)
  }
  return new FilesystemBlobStore(join(config.dataDir, 'blobs'))
}

/** Where a store keeps its blobs, for logs and `gc` output. */
export function describeBlobStore(config: Pick<ServerConfig, 'dataDir' | 'blobStore'>): string {
  const store = config.blobStore
  if (store.kind === 'filesystem') return join(config.dataDir, 'blobs')
  return `s3://${store.bucket}${store.prefix ? `/${store.prefix}` : ''}${store.endpoint ? ` at ${store.endpoint}` : ''}`
}
