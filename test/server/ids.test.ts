import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newId } from '../../server/ids.js'

test('ids sort as strings in the order they were made, within one millisecond too', () => {
  const sameMillisecond = Array.from({ length: 50 }, () => newId('dpl', 1_800_000_000_000))
  const later = newId('dpl', 1_800_000_000_001)
  const ids = [...sameMillisecond, later]
  assert.deepEqual([...ids].sort(), ids)
  assert.equal(new Set(ids).size, ids.length)
})

test('ids are DNS-safe: lowercase letters and digits after the prefix, 16 of them', () => {
  for (let i = 0; i < 100; i++) assert.match(newId('dpl'), /^dpl_[2-7a-z]{16}$/)
})
