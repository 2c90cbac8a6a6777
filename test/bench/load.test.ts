import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mergeLatencies, parseLatencies, parseWrkReport, percentile } from '../../bench/load.js'

const report = `Running 3s test @ http://127.0.0.1:8080/
  1 threads and 10 connections
  Latency Distribution
     50%  204.00us
     99%    1.11ms
  2871 requests in 3.00s, 1.2MB read
Requests/sec:    957.99
LATENCIES 150:2,204:5,1110:2,4000:1
`

test('wrk’s latency line reads into a distribution by the microsecond', () => {
  assert.deepEqual(
    [...parseLatencies(report)],
    [
      [150, 2],
      [204, 5],
      [1110, 2],
      [4000, 1],
    ],
  )
  assert.equal(parseWrkReport(report).latencies.size, 4)
  assert.equal(parseLatencies('no such line').size, 0)
})

test('a percentile ranks answers as wrk does', () => {
  const latencies = parseLatencies(report)
  // 10 answers: the 50th percentile is the 6th (round(5 + 0.5)), the 80th the 9th, the 99th the 10th.
  assert.equal(percentile(latencies, 50), 0.204)
  assert.equal(percentile(latencies, 80), 1.11)
  assert.equal(percentile(latencies, 99), 4)
  assert.ok(Number.isNaN(percentile(new Map(), 99)))
})

test('runs pooled weigh every answer once, so one slow run moves the tail by its share', () => {
  const quick = new Map([[200, 990]])
  const slow = new Map([
    [200, 80],
    [9000, 20],
  ])
  const pooled = mergeLatencies([quick, quick, slow])
  assert.equal(pooled.get(200), 2060)
  // 20 slow answers of 2,080: under 1%, so the pooled p99 is the quick runs', where the median of the
  // three runs' p99 would be too, and the slow run's own p99 is 9 ms.
  assert.equal(percentile(pooled, 99), 0.2)
  assert.equal(percentile(slow, 99), 9)
  assert.equal(percentile(mergeLatencies([quick, slow]), 99), 9)
})
