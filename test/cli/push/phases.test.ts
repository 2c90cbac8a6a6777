import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatPhase, PushPhases } from '../../../cli/push/phases.js'

test('each phase times from the end of the one before; live times the whole push', () => {
  let now = 1000
  const phases = new PushPhases(() => now)
  now += 300 // the cheap checks: not part of reading
  phases.restart()
  now += 120
  phases.end('read', '4 files')
  now += 880
  phases.end('validate')
  now += 2000
  phases.end('upload')
  now += 5000
  phases.end('build')
  const live = phases.end('live', 'live')
  assert.deepEqual(phases.toJSON(), { read: 120, validate: 880, upload: 2000, build: 5000, live: 8300 })
  assert.equal(
    JSON.stringify({ phases }),
    '{"phases":{"read":120,"validate":880,"upload":2000,"build":5000,"live":8300}}',
  )
  assert.equal(formatPhase(live), 'live       8.30 s  live')
  assert.equal(formatPhase(phases.timings[1]!), 'validate   0.88 s')
})
