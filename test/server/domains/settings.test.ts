import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../server/config.js'

test('domain settings: defaults, flags, and bad values named with their flag and variable', () => {
  const { config } = loadConfig([], {})
  assert.deepEqual(config.domains, {
    dnsResolver: undefined,
    dnsTimeoutMs: 3000,
    recheckSeconds: 3600,
    graceSeconds: 7 * 24 * 3600,
    apexAddresses: [],
    pendingDays: 7,
    pendingPerUser: 20,
  })
  const set = loadConfig(
    ['--dns-resolver', '[::1]:5353', '--domain-grace', '60', '--apex-addresses', '192.0.2.10, 2001:db8::10'],
    { DOCS_DNS_TIMEOUT: '500' },
  ).config.domains
  assert.equal(set.dnsResolver, '[::1]:5353')
  assert.equal(set.dnsTimeoutMs, 500)
  assert.equal(set.graceSeconds, 60)
  assert.deepEqual(set.apexAddresses, ['192.0.2.10', '2001:db8::10'])
  assert.equal(
    loadConfig(['--dns-resolver', '127.0.0.1:5353'], {}).config.domains.dnsResolver,
    '127.0.0.1:5353',
  )

  assert.throws(
    () => loadConfig(['--dns-resolver', 'dns.google'], {}),
    /--dns-resolver \/ DOCS_DNS_RESOLVER: expected an IP address/,
  )
  assert.throws(
    () => loadConfig(['--dns-timeout', '0'], {}),
    /--dns-timeout \/ DOCS_DNS_TIMEOUT: expected a whole number from 50/,
  )
  assert.throws(
    () => loadConfig(['--apex-addresses', 'example.com'], {}),
    /"example\.com" is not an IPv4 or IPv6 address/,
  )
  const limits = loadConfig(['--domain-pending-days', '3'], { DOCS_DOMAIN_PENDING_LIMIT: '5' }).config.domains
  assert.equal(limits.pendingDays, 3)
  assert.equal(limits.pendingPerUser, 5)
  assert.throws(
    () => loadConfig(['--domain-pending-days', '0'], {}),
    /--domain-pending-days \/ DOCS_DOMAIN_PENDING_DAYS: expected a whole number from 1 to 365/,
  )
  assert.throws(
    () => loadConfig([], { DOCS_DOMAIN_PENDING_LIMIT: 'many' }),
    /--domain-pending-limit \/ DOCS_DOMAIN_PENDING_LIMIT: expected a whole number/,
  )
  assert.throws(
    () => loadConfig([], { DOCS_DOMAIN_GRACE: 'a week' }),
    /DOCS_DOMAIN_GRACE: expected a whole number/,
  )
})
