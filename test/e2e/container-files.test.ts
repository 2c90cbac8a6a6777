/**
 * What `Dockerfile`, `compose.yaml` and `deploy/Caddyfile` must say, read from the files: the machines
 * that run these tests have no container runtime to build or start them.
 */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { parse as parseYaml } from 'yaml'
import { fromPackageRoot } from '../../compiler/assets.js'
import { settings } from '../../server/settings/table.js'

const read = (path: string) => readFile(fromPackageRoot(path), 'utf8')

/** The Dockerfile's last stage (the image that runs), its continued lines joined. */
async function runtimeStage(): Promise<string> {
  const dockerfile = (await read('Dockerfile')).replace(/\\\n\s*/g, ' ')
  const stages = dockerfile.split(/^FROM /m)
  return stages.at(-1)!
}

test('the image has git for Git-connected deploys and listens on every interface', async () => {
  const stage = await runtimeStage()
  assert.match(stage, /^RUN apt-get update && apt-get install -y [^\n]*\bgit\b/m)
  assert.match(stage, /^ENV [^\n]*\bHOST=0\.0\.0\.0\b/m)
})

test("the image's health check asks /ready, as balancers should", async () => {
  const healthcheck = (await runtimeStage()).split('\n').find((line) => line.startsWith('HEALTHCHECK'))
  assert.ok(healthcheck, 'no HEALTHCHECK in the runtime stage')
  assert.match(healthcheck, /\/ready'/)
  assert.doesNotMatch(healthcheck, /\/health\b/)
})

interface ComposeService {
  stop_grace_period?: string
  environment?: Record<string, string>
  entrypoint?: string
}

const seconds = (duration: string): number => {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration)
  assert.ok(match && duration !== '', `not a duration compose reads: ${duration}`)
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)
}

test("compose.yaml gives each replica longer to stop than the server's shutdown grace, and makes the bucket", async () => {
  const compose = parseYaml(await read('compose.yaml'), { merge: true }) as {
    services: Record<string, ComposeService>
  }
  const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('docs-'))
  assert.ok(replicas.length >= 2)
  for (const [name, service] of replicas) {
    assert.ok(service.stop_grace_period, `${name} sets no stop_grace_period (Docker's default is 10 s)`)
    const grace = Number(service.environment?.DOCS_SHUTDOWN_GRACE ?? settings.shutdownGraceSeconds.default)
    assert.ok(
      seconds(service.stop_grace_period) > grace,
      `${name}: ${service.stop_grace_period} ≤ ${grace} s`,
    )
    assert.match(service.environment?.DOCS_BLOB_STORE ?? '', /^s3:\/\/docs\//)
  }
  assert.match(compose.services['minio-bucket']?.entrypoint ?? '', /mc mb --ignore-existing local\/docs\b/)
})

test("Caddy's health check asks /ready", async () => {
  const caddyfile = await read('deploy/Caddyfile')
  assert.match(caddyfile, /^\s*health_uri \/ready$/m)
})
