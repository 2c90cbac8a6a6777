/** The one token module: what every secret looks like, how it is stored, how it is compared. */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import {
  bearerKind,
  constantTimeEqual,
  hashToken,
  issueToken,
  newOpaqueId,
  tokenPrefixes,
} from '../../server/tokens.js'

test('each kind of secret carries its prefix and 32 random bytes, and is stored as its SHA-256', () => {
  assert.deepEqual(tokenPrefixes, {
    accessToken: 'dsa_',
    refreshToken: 'dsr_',
    authorizationCode: 'dsc_',
    deployKey: 'dk_',
  })
  for (const [kind, prefix] of Object.entries(tokenPrefixes)) {
    const issued = issueToken(kind as keyof typeof tokenPrefixes)
    assert.ok(issued.token.startsWith(prefix), kind)
    assert.match(issued.token.slice(prefix.length), /^[A-Za-z0-9_-]{43}$/)
    assert.equal(issued.hash, createHash('sha256').update(issued.token).digest('hex'))
    assert.equal(hashToken(issued.token), issued.hash)
    assert.notEqual(issueToken(kind as keyof typeof tokenPrefixes).token, issued.token)
  }
  assert.match(newOpaqueId(), /^[A-Za-z0-9_-]{32}$/)
})

test('only access tokens and deploy keys of the right shape are bearer tokens', () => {
  assert.equal(bearerKind(issueToken('accessToken').token), 'accessToken')
  assert.equal(bearerKind(issueToken('deployKey').token), 'deployKey')
  assert.equal(
    bearerKind(issueToken('refreshToken').token),
    undefined,
    'a refresh token is not a bearer token',
  )
  assert.equal(bearerKind(issueToken('authorizationCode').token), undefined)
  assert.equal(bearerKind(`dsa_${'a'.repeat(42)}`), undefined)
  assert.equal(bearerKind(`dsa_${'a'.repeat(44)}`), undefined)
  assert.equal(bearerKind(`dk_${'a'.repeat(42)}!`), undefined)
})

test('constant-time comparison tells equal from unequal secrets of any length', () => {
  assert.equal(constantTimeEqual('dsa_same', 'dsa_same'), true)
  assert.equal(constantTimeEqual('dsa_same', 'dsa_samf'), false)
  assert.equal(constantTimeEqual('dsa_same', 'dsa_sam'), false)
  assert.equal(constantTimeEqual('', ''), true)
})
