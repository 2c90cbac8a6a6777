import assert from 'node:assert/strict'
import { test } from 'node:test'
import { challengeFor, createPkcePair, createState } from '../../../cli/auth/pkce.js'

test('the S256 challenge matches the example of RFC 7636 appendix B', () => {
  assert.equal(
    challengeFor('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
    'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  )
})

test('verifiers are 43 unreserved characters, different every time', () => {
  const a = createPkcePair()
  const b = createPkcePair()
  assert.match(a.verifier, /^[A-Za-z0-9_-]{43}$/)
  assert.notEqual(a.verifier, b.verifier)
  assert.equal(a.challenge, challengeFor(a.verifier))
  assert.notEqual(createState(), createState())
})
