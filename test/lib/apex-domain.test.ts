import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isApexDomain } from '../../lib/apex-domain.js'

test('apex domains: two labels, or three under a registry second level of a country code', () => {
  for (const apex of ['example.com', 'Example.COM.', 'example.co.uk', 'example.com.au', 'example.ac.jp'])
    assert.equal(isApexDomain(apex), true, apex)
  for (const sub of [
    'docs.example.com',
    'docs.example.co.uk',
    'a.b.example.com',
    'docs.example.io',
    'localhost',
  ])
    assert.equal(isApexDomain(sub), false, sub)
})
