/**
 * Brotli and gzip variants of a build's outputs, made on libuv's thread pool (off the build thread), at
 * levels chosen by how much the build has to compress.
 */
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Brotli and gzip levels for a build that compresses `totalBytes` of output. Brotli 11 costs about
 * 1 ms a kilobyte: for a cold build of a 470-page site (40 MB of pages whose sidebars repeat) that
 * is 10 s of CPU, where 6 takes 0.6 s for 4% larger files and gzip 6 saves a quarter of gzip 9's time
 * for 0.5%. A rebuild after an edit compresses a few pages, so it can afford the best ratio.
 */
export function compressionLevels(totalBytes: number): { brotli: number; gzip: number } {
  return totalBytes > COLD_BUILD_BYTES ? { brotli: 6, gzip: 6 } : { brotli: 11, gzip: 9 }
}

/** Above this much output to compress, a build is treated as cold (a few pages is an edit). */
const COLD_BUILD_BYTES = 512 * 1024

/** Brotli and gzip variants of one output, kept only when smaller than the original. */
export async function compress(
  file: { bytes: Uint8Array; br?: Uint8Array; gzip?: Uint8Array },
  levels: { brotli: number; gzip: number },
): Promise<void> {
  const { bytes } = file
  const [brotli, gzipped] = await Promise.all([
    brotliAsync(bytes, {
      params: {
        // Large files (sidebars of huge sites, the search index, llms-full.txt) never need more than 6.
        [constants.BROTLI_PARAM_QUALITY]:
          bytes.length > 64 * 1024 ? Math.min(6, levels.brotli) : levels.brotli,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: levels.gzip }),
  ])
  if (brotli.length < bytes.length) file.br = brotli
  if (gzipped.length < bytes.length) file.gzip = gzipped
}
