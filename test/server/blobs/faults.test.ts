/**
 * The bucket's answers are told from the SDK's own errors by their shape, not by the S3 client's class, so
 * that a server on its local folder never loads the AWS SDK: these pin that the shape matches the SDK's.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { NoSuchKey, S3ServiceException } from '@aws-sdk/client-s3'
import { describeStoreFault, isBlobStoreUnavailable } from '../../../server/blobs/faults.js'

const answer = (status: number, name: string) =>
  new S3ServiceException({
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  })

test('an answer of the bucket is described by its status and name, and passes when it is a 5xx or throttling', () => {
  assert.equal(describeStoreFault(answer(500, 'InternalError')), 'S3 answered HTTP 500 (InternalError)')
  assert.equal(
    describeStoreFault(new NoSuchKey({ message: 'gone', $metadata: { httpStatusCode: 404 } })),
    'S3 answered HTTP 404 (NoSuchKey)',
  )
  assert.equal(isBlobStoreUnavailable(answer(503, 'ServiceUnavailable')), true)
  assert.equal(isBlobStoreUnavailable(answer(429, 'TooManyRequests')), true)
  assert.equal(isBlobStoreUnavailable(answer(400, 'SlowDown')), true)
  assert.equal(isBlobStoreUnavailable(answer(403, 'AccessDenied')), false)
  assert.equal(isBlobStoreUnavailable(answer(404, 'NoSuchKey')), false)
})

test('a network failure the SDK marked is an outage; a file system error is described by its code', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
    code: 'ECONNREFUSED',
    $metadata: {},
  })
  assert.equal(isBlobStoreUnavailable(refused), true)
  assert.equal(describeStoreFault(refused), 'ECONNREFUSED')
  const full = Object.assign(new Error('no space left on /srv/data'), { code: 'ENOSPC', syscall: 'write' })
  assert.equal(describeStoreFault(full), 'ENOSPC on write')
  assert.equal(isBlobStoreUnavailable(full), false)
  // A look-alike that is no Error, or names another fault, is no answer of the bucket.
  assert.equal(isBlobStoreUnavailable({ $fault: 'server', $metadata: { httpStatusCode: 500 } }), false)
  assert.equal(
    describeStoreFault(Object.assign(new Error('x'), { $fault: 'other', $metadata: {} })),
    'an unexpected error',
  )
})
