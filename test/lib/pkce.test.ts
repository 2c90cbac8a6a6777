/** PKCE as both ends use it: the CLI's pair, the server's check, one implementation. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  createPkcePair,
  createState,
  isCodeVerifier,
  s256Challenge,
  verifyCodeVerifier,
} from '../../lib/pkce.js'

test('S256 matches the RFC 7636 appendix B example', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
  assert.equal(s256Challenge(verifier), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  assert.equal(verifyCodeVerifier(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), true)
  assert.equal(
    verifyCodeVerifier(`${verifier.slice(0, -1)}j`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    false,
  )
  // The plain method would compare verifier and challenge directly; it must never pass.
  assert.equal(verifyCodeVerifier(verifier, verifier), false)
})

test('code verifiers are 43-128 unreserved characters', () => {
  assert.equal(isCodeVerifier('a'.repeat(42)), false)
  assert.equal(isCodeVerifier('a'.repeat(43)), true)
  assert.equal(isCodeVerifier('a'.repeat(128)), true)
  assert.equal(isCodeVerifier('a'.repeat(129)), false)
  assert.equal(isCodeVerifier(`${'a'.repeat(42)}/`), false)
  assert.equal(isCodeVerifier(`${'a'.repeat(40)}-._~`), true)
})

test('created verifiers are 43 unreserved characters, different every time, and pass the check', () => {
  const a = createPkcePair()
  const b = createPkcePair()
  assert.match(a.verifier, /^[A-Za-z0-9_-]{43}$/)
  assert.notEqual(a.verifier, b.verifier)
  assert.equal(a.challenge, s256Challenge(a.verifier))
  assert.equal(verifyCodeVerifier(a.verifier, a.challenge), true)
  assert.equal(verifyCodeVerifier(b.verifier, a.challenge), false)
  assert.notEqual(createState(), createState())
})
