import assert from 'node:assert/strict'
import { type TestContext, test } from 'node:test'
import {
  GITHUB_CLIENT_ID,
  GITHUB_CLIENT_SECRET,
  type GitHubAccount,
  startGitHubStandIn,
} from '../auth/github-stand-in.js'
import {
  Browser,
  buildTestApp,
  callbackParams,
  codeGrant,
  exchangeCode,
  startCliLogin,
} from '../auth/harness.js'

async function githubApp(t: TestContext, account: GitHubAccount) {
  const github = await startGitHubStandIn(t, account)
  const { app } = await buildTestApp(t, {
    signIn: {
      githubClientId: GITHUB_CLIENT_ID,
      githubClientSecret: GITHUB_CLIENT_SECRET,
      githubUrl: github.url,
    },
  })
  return { app, github }
}

const octocat: GitHubAccount = {
  login: 'octocat',
  name: 'The Octocat',
  emails: [
    { email: 'octo-old@example.com', primary: false, verified: true },
    { email: 'Octo@Example.com', primary: true, verified: true },
  ],
}

test('GitHub sign-in: the verified primary email becomes the account', async (t) => {
  const { app, github } = await githubApp(t, octocat)
  const login = startCliLogin()
  const browser = new Browser(app)
  const authorize = await browser.request('GET', login.authorizeUrl)
  const upstream = new URL(authorize.location ?? '')
  assert.equal(upstream.origin, github.url)
  assert.equal(upstream.pathname, '/login/oauth/authorize')
  assert.equal(upstream.searchParams.get('scope'), 'read:user user:email')
  assert.equal(upstream.searchParams.get('code_challenge_method'), 'S256')

  const back = await browser.navigate(authorize.location ?? '', login.redirectUri)
  const params = callbackParams(back.location)
  assert.equal(params.get('state'), login.state)
  const tokens = await exchangeCode(app, codeGrant(login, params.get('code') ?? ''))
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
  const me = await app.inject({
    url: '/me',
    headers: { host: 'localhost:8080', authorization: `Bearer ${tokens.json.access_token}` },
  })
  assert.deepEqual(
    { email: me.json().email, name: me.json().name },
    { email: 'octo@example.com', name: 'The Octocat' },
  )
})

test('GitHub sign-in refuses an unverified primary email', async (t) => {
  const { app } = await githubApp(t, {
    login: 'newbie',
    name: null,
    emails: [{ email: 'newbie@example.com', primary: true, verified: false }],
  })
  const login = startCliLogin()
  const back = await new Browser(app).navigate(login.authorizeUrl, login.redirectUri)
  const params = callbackParams(back.location)
  assert.equal(params.get('error'), 'access_denied')
  assert.match(params.get('error_description') ?? '', /not verified your primary email newbie@example.com/)
  assert.equal(params.get('code'), null)
})

test('a user who declines at GitHub is sent back to the CLI with access_denied', async (t) => {
  const { app } = await githubApp(t, octocat)
  const login = startCliLogin()
  const browser = new Browser(app)
  const authorize = await browser.request('GET', login.authorizeUrl)
  const declined = new URL(authorize.location ?? '')
  declined.searchParams.set('login', 'deny')
  const back = await browser.navigate(declined.href, login.redirectUri)
  const params = callbackParams(back.location)
  assert.equal(params.get('error'), 'access_denied')
  assert.equal(params.get('state'), login.state)
})
