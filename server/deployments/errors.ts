/**
 * Why the deployment service refused a step, as data. The service does not know who called it: the
 * REST route turns each refusal into its answer (400, 409, 413, 429 with `{error, issues}`), the Git
 * deployer into a failed delivery with the reason in the repository's words. `BlobStoreFault` is no
 * refusal but a fault of ours, kept apart so a caller never blames the request for it.
 */

/** One file of a manifest the server will not take, and why. */
export type ManifestIssue = { index: number; path: string } & (
  | { problem: 'path'; rule: string }
  | { problem: 'duplicate' }
  | { problem: 'size'; size: number; limit: number }
)

/** A deployment the server will not create, or a file it will not take: the caller's to fix. */
export abstract class DeploymentRefused extends Error {}

/** Files of the manifest that break a rule: a path, a path listed twice, a file over the size limit. */
export class ManifestInvalid extends DeploymentRefused {
  constructor(readonly issues: readonly ManifestIssue[]) {
    super(`Invalid file manifest: ${issues.length} file(s) refused`)
  }

  /** A file over the size limit makes the whole manifest "too large" rather than "invalid". */
  get tooLarge(): boolean {
    return this.issues.some((issue) => issue.problem === 'size')
  }
}

/** The manifest as a whole lists more than one deployment may hold: files, or bytes in total. */
export class ManifestTooLarge extends DeploymentRefused {
  constructor(
    readonly unit: 'files' | 'bytes',
    readonly limit: number,
    readonly listed: number,
  ) {
    super(
      unit === 'files'
        ? `A deployment holds at most ${limit} files; this one lists ${listed}`
        : `A deployment may list at most ${limit} bytes; this one lists ${listed}`,
    )
  }

  /** The limit in a line: "more than 1000 bytes in total (--max-deployment-bytes)". */
  get rule(): string {
    return this.unit === 'files'
      ? `more than ${this.limit} files`
      : `more than ${this.limit} bytes in total (--max-deployment-bytes)`
  }
}

/** A daily quota of the project or of its owner is used up; the message says which. */
export class QuotaExceeded extends DeploymentRefused {
  /** The window is a day, so a little later some of it has passed. */
  readonly retryAfterSeconds = 3600

  constructor(
    message: string,
    readonly quota: {
      scope: 'project' | 'owner'
      unit: 'deployments' | 'files' | 'bytes'
      limit: number
      /** The server setting that raises it. */
      setting: string
    },
  ) {
    super(`${message}; try again later`)
  }

  /** The limit in a line: "at most 2 deployments a day per project (--project-deployments-per-day)". */
  get rule(): string {
    const { scope, unit, limit, setting } = this.quota
    return `at most ${limit} ${unit} a day per ${scope === 'project' ? 'project' : 'user'} (${setting})`
  }
}

/** Files are taken only while a deployment is uploading. */
export class NotUploading extends DeploymentRefused {
  constructor(
    readonly deploymentId: string,
    readonly status: string,
  ) {
    super(`Deployment ${deploymentId} is ${status}; files can only be added while uploading`)
  }
}

/** Finalize before every file of the manifest arrived. */
export class UploadIncomplete extends DeploymentRefused {
  constructor(readonly missingPaths: readonly string[]) {
    super(`${missingPaths.length} file(s) are not uploaded yet`)
  }
}

/** A chunk of a large file that does not fit: past its end, out of order, or the whole not its hash. */
export class ChunkRefused extends DeploymentRefused {
  constructor(
    readonly reason: 'past-end' | 'out-of-order' | 'hash-mismatch',
    /** The file's size (past-end) or the offset the next chunk must start at (out-of-order). */
    readonly expected: number,
  ) {
    super(
      reason === 'past-end'
        ? `The chunk runs past the ${expected} bytes the manifest declares`
        : reason === 'out-of-order'
          ? `Expected the chunk at offset ${expected}`
          : 'The uploaded bytes do not hash to the declared sha256; upload the file again from offset 0',
    )
  }
}

/** The blob store failed at `action` ("store the upload"); `cause` is its error, for the log only. */
export class BlobStoreFault extends Error {
  constructor(
    readonly action: string,
    override readonly cause: unknown,
    /** The store's fault in words a caller may read (no paths, no credentials). */
    readonly described: string,
  ) {
    super(`The blob store could not ${action}: ${described}`)
  }
}
