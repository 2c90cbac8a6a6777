import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DailySalt, utcDay } from '../../../server/insights/daily-salt.js'
import { testApp } from '../helper.js'

test('utcDay is the UTC date of an instant, across day boundaries and back', () => {
  const midnight = Date.parse('2026-03-02T00:00:00Z')
  assert.equal(utcDay(midnight), '2026-03-02')
  assert.equal(utcDay(midnight - 1), '2026-03-01')
  assert.equal(utcDay(midnight + 86_399_999), '2026-03-02')
  assert.equal(utcDay(midnight + 86_400_000), '2026-03-03')
  assert.equal(utcDay(midnight - 1), '2026-03-01', 'an earlier day again, after a later one')
  assert.equal(utcDay(Date.parse('1969-12-31T23:59:59Z')), '1969-12-31')
  assert.throws(() => utcDay(Number.NaN), RangeError)
})

test('once the day’s salt is stored, a visitor is hashed at once, the same as when it was awaited', async (t) => {
  const app = await testApp(t, 'sqlite')
  const salt = new DailySalt(app.repos)
  const reader = ['prj_1', '203.0.113.7', 'Mozilla/5.0'] as const
  const first = salt.visitor('2026-03-02', ...reader)
  assert.ok(first instanceof Promise, 'the salt is read from the database first')
  const hashed = await first
  assert.match(hashed, /^[\w-]{22}$/)
  assert.equal(salt.visitor('2026-03-02', ...reader), hashed)
  assert.notEqual(salt.visitor('2026-03-02', 'prj_2', reader[1], reader[2]), hashed, 'per project')
  const nextDay = salt.visitor('2026-03-03', ...reader)
  assert.ok(nextDay instanceof Promise, 'a new day reads its salt')
  assert.notEqual(await nextDay, hashed)
  assert.equal(
    await new DailySalt(app.repos).visitor('2026-03-03', ...reader),
    await nextDay,
    'as every replica',
  )
})
