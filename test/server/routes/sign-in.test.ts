import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Browser, buildTestApp, PUBLIC_URL, readForm, startCliLogin } from '../auth/harness.js'

test('the sign-in form ties itself to the browser with a path-scoped, HttpOnly, SameSite cookie', async (t) => {
  const { app } = await buildTestApp(t)
  const login = startCliLogin()
  const browser = new Browser(app)
  const authorize = await browser.request('GET', login.authorizeUrl)
  const page = await browser.request('GET', authorize.location ?? '')
  assert.equal(page.status, 200)
  const form = readForm(page.body)
  const cookie = page.headers['set-cookie'] ?? ''
  const [pair, ...attributes] = cookie.split(/;\s*/)
  assert.equal(pair, `docs_sign_in=${form.fields.csrf}`)
  assert.deepEqual(attributes.map((attribute) => attribute.split('=')[0]?.toLowerCase()).sort(), [
    'httponly',
    'max-age',
    'path',
    'samesite',
  ])
  assert.ok(attributes.includes('Path=/oauth/sign-in'), cookie)
  assert.ok(attributes.includes('SameSite=Strict'), cookie)

  const back = await browser.request('POST', `${PUBLIC_URL}${form.action}`, {
    ...form.fields,
    email: 'ada@example.com',
  })
  assert.equal(back.status, 303)
  // Signed in: the anti-forgery cookie is cleared.
  assert.match(back.headers['set-cookie'] ?? '', /^docs_sign_in=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/)
})
