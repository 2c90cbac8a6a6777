import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DnsRecord } from '../../../cli/api.js'
import { apexAdvice, recordsTable } from '../../../cli/domains/format.js'

const record = (
  type: DnsRecord['type'],
  name: string,
  value: string,
  use: DnsRecord['use'] = 'always',
): DnsRecord => ({
  type,
  name,
  value,
  purpose: type === 'TXT' ? 'ownership' : 'routing',
  use,
  status: 'unchecked',
})

test('an apex on a server without apex addresses is told to use ALIAS or flattening, never a CNAME, and which setting gives A/AAAA', () => {
  const records = [
    record('TXT', '_docs-challenge.example.com', 'v'),
    record('CNAME', 'example.com', 'acme.docs.host'),
  ]
  const printed = recordsTable(records, false)
  assert.match(
    printed,
    /^ALIAS {2}example\.com {18}acme\.docs\.host {2}or ANAME \/ CNAME flattening: a CNAME is not allowed at an apex$/m,
  )
  assert.doesNotMatch(printed, /CNAME {2}example\.com/)
  const advice = apexAdvice('example.com', records)
  assert.match(
    advice ?? '',
    /example\.com is an apex domain, where DNS allows no CNAME\. Point it at acme\.docs\.host/,
  )
  assert.match(advice ?? '', /docs\.example\.com/)
  assert.match(advice ?? '', /--apex-addresses \(DOCS_APEX_ADDRESSES\)/)
})

test('a subdomain keeps its CNAME, and an apex given A/AAAA records needs no advice', () => {
  const sub = [record('CNAME', 'docs.example.com', 'acme.docs.host')]
  assert.match(recordsTable(sub, false), /^CNAME {2}docs\.example\.com/m)
  assert.equal(apexAdvice('docs.example.com', sub), undefined)
  assert.equal(apexAdvice('example.com', [record('A', 'example.com', '192.0.2.10')]), undefined)
})
