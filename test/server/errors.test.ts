/**
 * Which dependency an error says is away, on real errors: an S3 client refused by a closed port (the
 * AWS SDK's error carries `ECONNREFUSED`, like a refused PostgreSQL connection) is the blob store's,
 * never "the database is unreachable"; a refused PostgreSQL connection is the database's.
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { test } from 'node:test'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import pg from 'pg'
import { createS3Client } from '../../server/blobs/s3.js'
import { isDatabaseUnavailable } from '../../server/db/retry.js'
import { outageMessage, unavailableDependency } from '../../server/errors.js'

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

test('a refused S3 bucket is the blob store, a refused PostgreSQL the database', async () => {
  const port = await closedPort()
  const s3 = createS3Client({
    kind: 's3',
    bucket: 'docs',
    prefix: '',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
  })
  const s3Error = await s3.send(new GetObjectCommand({ Bucket: 'docs', Key: 'k' })).catch((error) => error)
  s3.destroy()
  assert.equal((s3Error as { code?: string }).code, 'ECONNREFUSED')
  assert.equal(isDatabaseUnavailable(s3Error), false, 'not the database')
  assert.equal(unavailableDependency(s3Error), 'blob store')
  assert.equal(
    outageMessage('blob store', s3Error),
    'The blob store is unreachable (ECONNREFUSED on connect); retry shortly',
  )

  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/test` })
  const pgError = await client.connect().catch((error) => error)
  assert.equal(unavailableDependency(pgError), 'database')
  assert.equal(unavailableDependency(new Error('syntax error at or near "selec"')), undefined)
})
