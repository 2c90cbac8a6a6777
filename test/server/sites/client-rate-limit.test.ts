import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { test } from 'node:test'
import getPort from 'get-port'
import { Redis } from 'ioredis'
import { ClientRateLimit, redisWindows } from '../../../server/sites/client-rate-limit.js'
import { needs } from '../../tier.js'

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A request from `address` through the trusted proxy 127.0.0.1. */
const from = (address: string) =>
  ({
    headers: { 'x-forwarded-for': address },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage

/** A client address of its own, so runs sharing one Redis never count against each other. */
const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

const minute = 60_000
/** 20 s into a minute of the clock. */
const at = 29_833_334 * minute + 20_000

test('a flood of made-up addresses is forgotten at 100,000, and an address forgotten starts afresh', async () => {
  const limit = new ClientRateLimit(1, ['127.0.0.1'], 'insights')
  assert.equal(await limit.take(from('10.0.0.1'), 1, at), undefined)
  assert.ok(await limit.take(from('10.0.0.1'), 1, at), 'over its budget')
  for (let index = 0; index < 99_999; index++) await limit.take(from(`fd00::${index.toString(16)}`), 1, at)
  assert.ok(await limit.take(from('10.0.0.1'), 1, at), 'still counted among 100,000 addresses')
  await limit.take(from('fd01::1'), 1, at)
  assert.equal(await limit.take(from('10.0.0.1'), 1, at), undefined, 'the map was emptied when full')
})

test('the client is the first address past the trusted proxies, however often each address comes back', () => {
  const limit = new ClientRateLimit(1, ['127.0.0.1', '10.1.0.0/16'], 'insights')
  const request = (socket: string, forwarded: string) =>
    ({
      headers: { 'x-forwarded-for': forwarded },
      socket: { remoteAddress: socket },
    }) as unknown as IncomingMessage
  for (let round = 0; round < 3; round++) {
    assert.equal(limit.clientAddress(request('127.0.0.1', '10.0.0.9, 10.1.2.3')), '10.0.0.9')
    assert.equal(limit.clientAddress(request('10.0.0.9', '192.0.2.1')), '10.0.0.9', 'no proxy of ours')
    assert.equal(limit.clientAddress(request('10.1.9.9', '10.0.0.9')), '10.0.0.9')
    assert.equal(limit.clientAddress(request('127.0.0.1', '127.0.0.1')), '127.0.0.1', 'the proxy itself')
  }
  // Past 100,000 forwarded addresses the answers are forgotten, and found again.
  for (let index = 0; index < 100_001; index++) limit.clientAddress(from(`fd00::${index.toString(16)}`))
  assert.equal(limit.clientAddress(request('10.1.0.1', '10.0.0.9')), '10.0.0.9')
  assert.equal(limit.clientAddress(request('10.0.0.9', '10.1.0.1')), '10.0.0.9')
})

test('each client has a budget a minute, in windows aligned to the clock; the answer says when to retry', async () => {
  const limit = new ClientRateLimit(2, ['127.0.0.1'], 'insights')
  const [ada, bo] = [someClient(), someClient()]
  assert.equal(await limit.take(from(ada), 1, at), undefined)
  assert.equal(await limit.take(from(ada), 1, at + 1000), undefined)
  assert.deepEqual(await limit.take(from(ada), 1, at + 2000), { retryAfterSeconds: 38 })
  assert.equal(await limit.take(from(bo), 1, at + 2000), undefined, 'another address has its own budget')
  assert.equal(await limit.take(from(ada), 1, at + 40_000), undefined, 'the next minute starts afresh')
  assert.deepEqual(
    await limit.take(from(bo), 3, at + 40_000),
    { retryAfterSeconds: 60 },
    'a batch counts each call',
  )
})

test('with Redis, replicas share each client’s budget; endpoints (scopes) keep separate ones', {
  skip: needs('Redis'),
}, async (t) => {
  const connections = [0, 1, 2].map(
    () => new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false }),
  )
  t.after(() => Promise.all(connections.map((redis) => redis.quit())))
  const [first, second, mcp] = connections.map(
    (redis, index) =>
      new ClientRateLimit(3, ['127.0.0.1'], index === 2 ? 'mcp' : 'insights', redisWindows(redis)),
  ) as [ClientRateLimit, ClientRateLimit, ClientRateLimit]
  const client = someClient()
  const now = Date.now()
  const answers = []
  for (const replica of [first, second, first, second]) answers.push(await replica.take(from(client), 1, now))
  assert.deepEqual(answers.slice(0, 3), [undefined, undefined, undefined])
  assert.ok(answers[3] && answers[3].retryAfterSeconds >= 1, 'the fourth call, on either replica, is over')
  assert.equal(await mcp.take(from(client), 1, now), undefined, 'MCP calls have a budget of their own')
  // The window's key expires with the window, so Redis keeps nothing past it.
  const key = `docs-rate-limit:insights:${client}:${Math.floor(now / minute) * minute}`
  assert.equal(await connections[0]?.get(key), '4')
  const ttl = (await connections[0]?.pttl(key)) ?? 0
  assert.ok(ttl > 0 && ttl <= minute, `expires within the minute (${ttl} ms)`)
})

test('while Redis does not answer, each process counts on its own: the limit still holds', async (t) => {
  const closed = new Redis(await getPort(), '127.0.0.1', {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  })
  closed.on('error', () => {})
  t.after(() => closed.disconnect())
  const limit = new ClientRateLimit(2, ['127.0.0.1'], 'insights', redisWindows(closed))
  const client = someClient()
  const answers = []
  for (let call = 0; call < 3; call++) answers.push(await limit.take(from(client), 1, at))
  assert.deepEqual(answers, [undefined, undefined, { retryAfterSeconds: 40 }])
})
