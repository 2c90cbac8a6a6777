/**
 * compose.yaml, checked without a container runtime: its services and how they reach each other, that
 * every variable it gives docs-server is a setting docs-server reads (and parses as such), and that the
 * Caddyfile it mounts reads exactly the variables it gives Caddy, adapts with them, and balances over
 * the docs-server replicas on the port the image listens on.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { parse } from 'yaml'
import { fromPackageRoot } from '../../compiler/assets.js'
import { readSettings } from '../../server/settings/read.js'
import { settingNames, settings } from '../../server/settings/table.js'
import { noCaddy, shippedCaddyfile } from './caddy-server.js'

interface Service {
  build?: string
  image?: string
  environment?: Record<string, string>
  ports?: string[]
  volumes?: string[]
  depends_on?: string[] | Record<string, unknown>
  entrypoint?: string
}

const compose = parse(readFileSync(fromPackageRoot('compose.yaml'), 'utf8')) as {
  services: Record<string, Service>
  volumes: Record<string, unknown>
}
const services = compose.services
const docsServers = Object.keys(services).filter((name) => services[name]!.build === '.')
const caddy = services.caddy!
const caddyfile = readFileSync(shippedCaddyfile, 'utf8')
const settingEnv = new Set<string>(settingNames.map((name) => settings[name].env))

/** `ENV A=1 B=2` lines of the Dockerfile, as a map. */
const imageEnv = new Map(
  [...readFileSync(fromPackageRoot('Dockerfile'), 'utf8').matchAll(/^ENV (.+)$/gm)].flatMap((line) =>
    [...line[1]!.matchAll(/(\w+)=(\S+)/g)].map((pair) => [pair[1]!, pair[2]!] as const),
  ),
)

/** The Caddyfile's `{$NAME}` and `{$NAME:default}` placeholders: name → has a default. */
const placeholders = new Map(
  [...caddyfile.replace(/#.*$/gm, '').matchAll(/\{\$(\w+)(:[^}]*)?\}/g)].map(
    (match) => [match[1]!, match[2] !== undefined] as const,
  ),
)

test('two docs-server replicas from the image, PostgreSQL, MinIO and its bucket, and Caddy', () => {
  assert.deepEqual(docsServers, ['docs-1', 'docs-2'])
  for (const name of ['postgres', 'minio', 'minio-bucket', 'caddy']) assert.ok(services[name], name)
  // Every replica has the same settings: one deployment, whichever replica answers.
  assert.deepEqual(services['docs-1']!.environment, services['docs-2']!.environment)
  // Only Caddy is published; the replicas, the database and the bucket are reachable inside only.
  for (const [name, service] of Object.entries(services))
    if (name !== 'caddy') assert.equal(service.ports, undefined, `${name} publishes no port`)
  assert.deepEqual(caddy.ports, ['80:80', '443:443'])
})

test("every variable compose.yaml gives docs-server is a setting, and parses as docs-server's", () => {
  const env = services['docs-1']!.environment!
  const unknown = Object.keys(env).filter((name) => !settingEnv.has(name))
  assert.deepEqual(unknown, [], 'variables docs-server does not read')
  for (const name of imageEnv.keys())
    if (name !== 'NODE_ENV') assert.ok(settingEnv.has(name), `Dockerfile ENV ${name} is not a setting`)
  // The image's environment, then compose's: the values docs-server starts with, through its own parsers.
  const given = { ...Object.fromEntries(imageEnv), ...env }
  const values = readSettings((setting) => given[setting.env])
  assert.equal(values.databaseUrl, 'postgres://docs:change-me@postgres:5432/docs')
  assert.equal(values.publicUrl, `https://${values.apiHost}`)
  assert.ok((values.trustProxy ?? []).length > 0, "Caddy's network is trusted for X-Forwarded-For")
})

test('the replicas reach PostgreSQL and MinIO with the credentials those services are given', () => {
  const env = services['docs-1']!.environment!
  const database = new URL(env.DATABASE_URL!)
  const postgres = services.postgres!.environment!
  assert.equal(database.hostname, 'postgres')
  assert.deepEqual(
    [database.username, database.password, database.pathname.slice(1)],
    [postgres.POSTGRES_USER, postgres.POSTGRES_PASSWORD, postgres.POSTGRES_DB],
  )
  const minio = services.minio!.environment!
  assert.equal(new URL(env.DOCS_S3_ENDPOINT!).hostname, 'minio')
  assert.deepEqual(
    [env.DOCS_S3_ACCESS_KEY_ID, env.DOCS_S3_SECRET_ACCESS_KEY],
    [minio.MINIO_ROOT_USER, minio.MINIO_ROOT_PASSWORD],
  )
  const bucket = new URL(env.DOCS_BLOB_STORE!).hostname
  assert.match(
    services['minio-bucket']!.entrypoint ?? '',
    new RegExp(`mc mb --ignore-existing local/${bucket}\\b`),
  )
})

test('Caddy mounts the shipped Caddyfile and is given exactly the variables it reads', () => {
  const mounts = caddy.volumes ?? []
  assert.ok(mounts.includes('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro'), mounts.join(', '))
  // Certificates and the internal CA live in the image's data folder: a named volume keeps them.
  assert.ok(mounts.includes('caddy:/data'))
  for (const service of Object.values(services))
    for (const mount of service.volumes ?? [])
      if (mount.startsWith('./')) assert.ok(existsSync(fromPackageRoot(mount.split(':')[0]!)), mount)

  const env = caddy.environment ?? {}
  const required = [...placeholders].filter(([, hasDefault]) => !hasDefault).map(([name]) => name)
  for (const name of required) assert.ok(env[name], `the Caddyfile needs ${name}`)
  for (const name of Object.keys(env)) assert.ok(placeholders.has(name), `the Caddyfile never reads ${name}`)
  // The names Caddy serves are the ones docs-server answers on.
  const docsEnv = services['docs-1']!.environment!
  assert.equal(env.DOCS_API_HOST, docsEnv.DOCS_API_HOST)
  assert.equal(env.DOCS_BASE_DOMAIN, docsEnv.DOCS_BASE_DOMAIN)
  assert.deepEqual(
    env.DOCS_UPSTREAMS!.split(' '),
    docsServers.map((name) => `${name}:${imageEnv.get('PORT')}`),
  )
})

test('the mounted Caddyfile adapts with the variables compose.yaml gives Caddy', { skip: noCaddy }, () => {
  const adapted = spawnSync('caddy', ['adapt', '--config', shippedCaddyfile, '--adapter', 'caddyfile'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...caddy.environment },
  })
  assert.equal(adapted.status, 0, adapted.stderr)
  const config = JSON.stringify(JSON.parse(adapted.stdout))
  for (const name of docsServers) assert.ok(config.includes(`"dial":"${name}:8080"`), name)
  assert.ok(config.includes('"ask":"http://127.0.0.1:5555/tls/ask"'), config)
  assert.ok(
    config.includes('"module":"internal"'),
    'the .localhost names get certificates from the internal CA',
  )
})
