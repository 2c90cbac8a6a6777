#!/usr/bin/env node
/**
 * The `docs-server` binary: `start` (the default) listens and shuts down cleanly; `token create
 * --email <email>` prints a session token as its last line; `migrate` runs migrations and exits;
 * `gc [--dry-run]` applies retention and deletes unreferenced blobs, printing what it freed.
 */
// First, before anything else loads: see the module (it keeps the site hot path on V8's fast path).
import './ops/hot-path-shapes.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pretty, { type PrettyStream } from 'pino-pretty'
import { themeFiles } from '../compiler/theme/assets.js'
import { raiseInterruptBudget } from '../lib/jit-budget.js'
import { buildApp } from './app.js'
import { secretLogRedaction } from './auth/oauth/log-redaction.js'
import { describeBlobStore, openBlobStore } from './blobs/open.js'
import { CdnPurger, deploymentTag } from './cdn/purger.js'
import { loadConfig, type ServerConfig } from './config.js'
import { migrateToLatest, openDatabase } from './db/index.js'
import { createRepositories } from './db/repositories/index.js'
import { describeGcReport, GarbageCollector } from './gc/collector.js'
import { recordRun } from './gc/schedule.js'
import { ConfigError } from './settings/errors.js'
import { settingsHelp } from './settings/help.js'

async function start(config: ServerConfig): Promise<void> {
  // Refuse to start without the theme's stylesheet and script: every build would publish unstyled pages.
  themeFiles()
  // A start that hangs (a database that never answers, a migration lock another replica holds, a
  // bucket that does not answer) ends the process with the step it waited on: an orchestrator then
  // restarts it, where a process alive but not listening would sit behind the balancer for good.
  let step = 'starting'
  const deadline = setTimeout(() => {
    process.stderr.write(
      `docs-server: start-up did not finish within ${config.startupTimeoutSeconds} s (--startup-timeout): still ${step}\n`,
    )
    process.exit(1)
  }, config.startupTimeoutSeconds * 1000)
  // Credentials never reach the log, even at trace level or when a plugin logs whole headers.
  const app = await buildApp(config, {
    logger: { level: config.logLevel, redact: secretLogRedaction, ...logDestination() },
    onStep: (next) => {
      step = next
    },
  }).catch((error: unknown) => {
    clearTimeout(deadline)
    throw error
  })
  try {
    if (config.blobStore.kind === 's3') {
      step = `checking the bucket ${describeBlobStore(config)}`
      await app.blobs.check().catch((error: unknown) => {
        throw new Error(`cannot use the blob store ${describeBlobStore(config)}: ${reasonOf(error)}`)
      })
    }
    step = `starting background work and listening on ${config.host}:${config.port}`
    app.server.requestTimeout = 120_000
    app.server.keepAliveTimeout = 72_000
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      throw new ConfigError(
        `port ${config.port} on ${config.host} is in use (another docs-server, or docsctl dev?): stop what holds it, or pass another with --port / PORT`,
      )
    })
  } catch (error) {
    // What started already (build threads, the change feed, Redis) is stopped, briefly: the process
    // exits next either way.
    await Promise.race([app.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000))])
    throw error
  } finally {
    clearTimeout(deadline)
  }
  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and builds')
    // Fastify's close stops accepting, ends keep-alive connections as they go idle (ConnectionDrain),
    // waits for open requests, then runs onClose (builds, database).
    const force = setTimeout(() => {
      app.log.error(`shutdown took longer than ${config.shutdownGraceSeconds} s (--shutdown-grace); exiting`)
      process.exit(1)
    }, config.shutdownGraceSeconds * 1000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  app.log.info(
    {
      api: `http://${config.apiHost}/`,
      sites: `http://<slug>.${config.baseDomain}/`,
      dataDir: config.dataDir,
    },
    'docs-server ready',
  )
}

const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message || error.name : String(error)

/**
 * Readable lines for a person at a terminal; one JSON object a line otherwise, for log collectors.
 * pino-pretty runs in this thread (sync) so nothing is lost when the process exits.
 */
function logDestination(): { stream?: PrettyStream } {
  if (!process.stdout.isTTY) return {}
  return {
    stream: pretty({
      sync: true,
      colorize: !process.env.NO_COLOR,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
    }),
  }
}

async function createToken(config: ServerConfig, email: string | undefined, name: string | undefined) {
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new ConfigError('token create needs --email <address>, for example --email you@example.com')
  }
  const { db, schema } = openDatabase(config)
  try {
    await migrateToLatest(db, schema)
    const repos = createRepositories(db)
    const user = await repos.users.findOrCreate(email, name ?? null)
    const { token, expiresAt } = await repos.accessTokens.issue(user.id, config.tokenTtlSeconds)
    process.stdout.write(`Session token for ${user.email} (expires ${expiresAt}):\n${token}\n`)
  } finally {
    await db.destroy()
  }
}

async function migrate(config: ServerConfig): Promise<void> {
  const { db, engine, schema } = openDatabase(config)
  try {
    const applied = await migrateToLatest(db, schema)
    process.stdout.write(
      applied.length
        ? `Applied on ${engine}: ${applied.join(', ')}\n`
        : `Database (${engine}) is up to date\n`,
    )
  } finally {
    await db.destroy()
  }
}

async function collectGarbage(config: ServerConfig, dryRun: boolean): Promise<void> {
  const { db, schema } = openDatabase(config)
  // Its own spool and no read cache: a running server's cache in the data dir stays as it is.
  const localRoot = await mkdtemp(join(tmpdir(), 'docs-gc-'))
  const blobs = await openBlobStore(config, { localRoot })
  const say = (details: object, message: string) =>
    process.stderr.write(`${message} ${JSON.stringify(details)}\n`)
  // Purges are jobs in the database: one this run cannot send is finished by a running server.
  const cdn = new CdnPurger(
    config.cdnPurge,
    { info: say, warn: say, error: say },
    createRepositories(db).cdnPurges,
  )
  try {
    await migrateToLatest(db, schema)
    const repos = createRepositories(db)
    const gc = new GarbageCollector(repos, blobs, config.retention)
    gc.onDeploymentsDeleted = (deleted) =>
      void cdn.purge(
        deleted.map((deployment) => deploymentTag(deployment.id)),
        'gc',
      )
    const runId = await repos.retention.startRun({ dryRun })
    if (!runId) throw new Error('could not record the garbage collection run')
    const report = await recordRun(repos, runId, gc, dryRun)
    process.stdout.write(`${describeGcReport(report, describeBlobStore(config))}\n`)
  } finally {
    await cdn.close()
    blobs.close()
    await db.destroy()
    await rm(localRoot, { recursive: true, force: true })
  }
}

async function main(args: string[]): Promise<number> {
  const { config, positionals, extra, help, dryRun } = loadConfig(args)
  if (help) {
    process.stdout.write(`${settingsHelp()}\n`)
    return 0
  }
  const command = positionals.join(' ')
  if (command === '' || command === 'start') await start(config)
  else if (command === 'token create') await createToken(config, extra.email, extra.name)
  else if (command === 'migrate') await migrate(config)
  else if (command === 'gc') await collectGarbage(config, dryRun)
  else throw new ConfigError(`Unknown command "${command}": expected start, token create, migrate or gc`)
  return 0
}

// Before any build thread starts; 4×, not docsctl's 16×, as this process also serves (see the module).
raiseInterruptBudget(4)
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`docs-server: ${reasonOf(error)}\n`)
    // Exit now: a pool, a LISTEN connection or a retrying client left open must not keep a process
    // that failed alive (alive but not listening, it would look healthy to a process supervisor).
    process.exit(1)
  },
)
