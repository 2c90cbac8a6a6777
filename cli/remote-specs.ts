/**
 * OpenAPI documents that docs.json names by `http(s)` URL are fetched here, by the CLI (`validate`,
 * `build`, `push`, `dev`), and added to the site's files where the compiler looks for them
 * (`_openapi/<hash>.spec`), so they are uploaded with the site: the server never fetches anything
 * during a build.
 */
import { loadConfig } from '../compiler/config/index.js'
import { configSpecSources, fetchedSpecPath, isSpecUrl } from '../compiler/openapi/index.js'

/** A spec larger than this is refused (the largest public specs are a few MB). */
const MAX_SPEC_BYTES = 25 * 1024 * 1024
const TIMEOUT_MS = 15_000

/** Spec URLs docs.json names (`api.openapi`, sections' `openapi`). */
export function remoteSpecUrls(files: ReadonlyMap<string, Uint8Array>): string[] {
  const { config } = loadConfig(files, { mode: 'lenient' })
  return config ? configSpecSources(config).filter(isSpecUrl) : []
}

/**
 * Fetches every spec URL of docs.json into `files`. Returns a problem line for each that could not be
 * fetched (the build then leaves its pages out and says so); never throws.
 */
export async function fetchRemoteSpecs(
  files: Map<string, Uint8Array>,
  fetcher: typeof fetch = fetch,
): Promise<string[]> {
  const problems: string[] = []
  await Promise.all(
    remoteSpecUrls(files).map(async (url) => {
      try {
        const response = await fetcher(url, {
          signal: AbortSignal.timeout(TIMEOUT_MS),
          headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
        })
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const declared = Number(response.headers.get('content-length') ?? 0)
        if (declared > MAX_SPEC_BYTES) throw new Error(`larger than ${MAX_SPEC_BYTES / 1024 / 1024} MB`)
        const bytes = new Uint8Array(await response.arrayBuffer())
        if (bytes.byteLength > MAX_SPEC_BYTES)
          throw new Error(`larger than ${MAX_SPEC_BYTES / 1024 / 1024} MB`)
        files.set(fetchedSpecPath(url), bytes)
      } catch (error) {
        const reason =
          error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : String(error)
        problems.push(
          `docs.json: cannot fetch the OpenAPI document ${url} (${reason}); its pages are left out`,
        )
      }
    }),
  )
  return problems
}
