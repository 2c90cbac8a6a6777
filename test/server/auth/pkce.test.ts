import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isCodeVerifier, s256Challenge, verifyCodeVerifier } from '../../../server/auth/oauth/pkce.js'
import { checkLoopbackRedirectUri, redirectWithParams } from '../../../server/auth/oauth/redirect-uri.js'

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

test('only loopback http redirect URIs on any port are accepted (RFC 8252)', () => {
  for (const uri of [
    'http://127.0.0.1:8787/callback',
    'http://localhost:51234/',
    'http://[::1]:9000/cb',
    'http://127.0.0.1/callback',
  ]) {
    assert.equal(checkLoopbackRedirectUri(uri).ok, true, uri)
  }
  for (const uri of [
    'https://127.0.0.1:8787/callback',
    'http://example.com:8787/callback',
    'http://127.0.0.1.evil.example/cb',
    'http://user:pass@127.0.0.1:8787/cb',
    'http://127.0.0.1:8787/cb#frag',
    'docsctl://callback',
    'not a url',
  ]) {
    assert.equal(checkLoopbackRedirectUri(uri).ok, false, uri)
  }
})

test('the response parameters are added to the client’s own query', () => {
  assert.equal(
    redirectWithParams('http://127.0.0.1:8787/callback?session=1', {
      code: 'c',
      state: 's&t',
      absent: undefined,
    }),
    'http://127.0.0.1:8787/callback?session=1&code=c&state=s%26t',
  )
})
