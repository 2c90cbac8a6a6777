import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkLoopbackRedirectUri, redirectWithParams } from '../../../server/auth/oauth/redirect-uri.js'

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
