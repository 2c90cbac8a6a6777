/** Which database errors are an outage to wait out, and which refuse the data itself for good. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isDatabaseUnavailable, isRefusedData } from '../../../server/db/retry.js'

const coded = (code: string) => Object.assign(new Error(code), { code })

test('refused data is a data exception or a broken constraint, never a connection failure', () => {
  // PostgreSQL: a foreign key, NOT NULL, U+0000 in text; SQLite: a constraint, a value too big.
  for (const code of ['23503', '23502', '22021', '22P02', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_TOOBIG']) {
    assert.equal(isRefusedData(coded(code)), true, code)
    assert.equal(isDatabaseUnavailable(coded(code)), false, code)
  }
  for (const code of ['ECONNREFUSED', '57P01', '08006', 'SQLITE_BUSY', '40001', '53300'])
    assert.equal(isRefusedData(coded(code)), false, code)
  assert.equal(isRefusedData(new Error('violates foreign key constraint')), false, 'no code: not known')
  assert.equal(isRefusedData(undefined), false)
})
