/**
 * A purge of the Varnish nodes that run deploy/varnish.vcl: `PURGE /` with the tags in an
 * `xkey-purge` header, to every node at once (each holds its own copy of a page). The VCL answers 200
 * with how many objects went, 403 to an address outside its `docs_purgers` ACL. The purger
 * (purger.ts) retries the whole request when a node failed: purging a node twice is harmless.
 */

/** How a purge of the nodes went: undefined when every node purged. */
export interface VarnishPurgeFailure {
  message: string
  /** A node that did not answer or answered 5xx may mend; a 403 (the ACL) will not. */
  retryable: boolean
}

/** Tags per request: they travel in one header, and Varnish takes 8 KB of a request's headers. */
export const varnishBatchSize = 100

async function purgeNode(node: string, tags: readonly string[], timeoutMs: number) {
  let response: Response
  try {
    response = await fetch(`${node}/`, {
      method: 'PURGE',
      headers: { 'xkey-purge': tags.join(' ') },
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    return {
      message: `${node}: request failed: ${error instanceof Error ? error.message : String(error)}`,
      retryable: true,
    }
  }
  const text = await response.text().catch(() => '')
  if (response.ok) return undefined
  return {
    message: `${node}: HTTP ${response.status}: ${text.trim().slice(0, 200)}`,
    retryable: response.status === 429 || response.status >= 500,
  }
}

/** Purges `tags` from every node; the failures of the nodes that failed, in one message. */
export async function purgeVarnish(
  nodes: readonly string[],
  tags: readonly string[],
  timeoutMs: number,
): Promise<VarnishPurgeFailure | undefined> {
  const failures = (await Promise.all(nodes.map((node) => purgeNode(node, tags, timeoutMs)))).filter(
    (failure) => failure !== undefined,
  )
  if (failures.length === 0) return undefined
  return {
    message: failures.map((failure) => failure.message).join('; '),
    retryable: failures.some((failure) => failure.retryable),
  }
}
