/** Users, access tokens and sign-ins through the one repository layer, on both sqlEngines. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { migrateToLatest, openDatabase } from '../../../../server/db/index.js'
import { createRepositories } from '../../../../server/db/repositories/index.js'
import { hashToken } from '../../../../server/tokens.js'
import { sqlEngines, testConfig } from '../../helper.js'

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000)

for (const engine of sqlEngines) {
  describe(`users, tokens and sign-ins (${engine})`, () => {
    const open = async (t: Parameters<typeof testConfig>[0]) => {
      const { db, schema } = openDatabase(await testConfig(t, engine))
      t.after(() => db.destroy())
      await migrateToLatest(db, schema)
      return { db, repos: createRepositories(db) }
    }

    const pendingSignIn = (id: string, now: Date) => ({
      id,
      client_id: 'docsctl',
      redirect_uri: 'http://127.0.0.1:8787/callback',
      state: 'cli-state',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      provider: 'local',
      upstream_verifier: null,
      upstream_nonce: null,
      csrf_hash: null,
      expires_at: later(now, 600).toISOString(),
      created_at: now.toISOString(),
    })

    test('a user is one row per address; a name from the identity provider replaces the stored one', async (t) => {
      const { repos } = await open(t)
      const [a, b] = await Promise.all([
        repos.users.findOrCreate('Grace@Example.com'),
        repos.users.findOrCreate('grace@example.com'),
      ])
      assert.equal(a.id, b.id, 'two first sign-ins at once make one user')
      assert.equal((await repos.users.findOrCreate('grace@example.com', 'Grace Hopper')).name, 'Grace Hopper')
      assert.equal((await repos.users.findById(a.id))?.name, 'Grace Hopper')
      assert.equal(
        (await repos.users.findOrCreate('grace@example.com')).name,
        'Grace Hopper',
        'no name keeps it',
      )
    })

    test('access tokens are stored as hashes and found by the token', async (t) => {
      const { db, repos } = await open(t)
      const user = await repos.users.findOrCreate('ada@example.com')
      const issued = await repos.accessTokens.issue(user.id, 60)
      const row = await db.selectFrom('access_tokens').selectAll().executeTakeFirstOrThrow()
      assert.equal(row.token_hash, hashToken(issued.token))
      assert.ok(!Object.values(row).includes(issued.token), 'the token itself is never stored')
      assert.equal((await repos.accessTokens.findByToken(issued.token))?.id, issued.id)
      await repos.accessTokens.revoke(issued.id)
      assert.equal(await repos.accessTokens.findByToken(issued.token), undefined)
    })

    test('a code is consumed once, even by two requests at once; a second use is reported', async (t) => {
      const { db, repos } = await open(t)
      const now = new Date()
      const user = await repos.users.findOrCreate('ada@example.com')
      const code = await repos.signIns.issueCode(pendingSignIn('p1', now), user.id, 60, now)
      assert.match(code, /^dsc_[A-Za-z0-9_-]{43}$/)
      assert.equal(
        (await db.selectFrom('oauth_codes').select('code_hash').executeTakeFirstOrThrow()).code_hash,
        hashToken(code),
      )
      const [first, second] = await Promise.all([
        repos.signIns.consumeCode(code, now),
        repos.signIns.consumeCode(code, now),
      ])
      const won = [first, second].filter((result) => result !== undefined && !('reused' in result))
      const refused = [first, second].filter((result) => result !== undefined && 'reused' in result)
      assert.equal(won.length, 1)
      assert.equal(refused.length, 1)
      assert.equal(await repos.signIns.consumeCode('dsc_unknown', now), undefined)
    })

    test('replaying a rotated refresh token revokes its family and the family’s access tokens, and only those', async (t) => {
      const { repos } = await open(t)
      const now = new Date()
      const user = await repos.users.findOrCreate('ada@example.com')
      const family = { family_id: 'fam-1', user_id: user.id, client_id: 'docsctl' }
      const first = await repos.signIns.issueRefreshToken(family, 3600, now)
      const access = await repos.accessTokens.issue(user.id, 3600, { familyId: 'fam-1', now })
      const elsewhere = await repos.accessTokens.issue(user.id, 3600, { familyId: 'fam-2', now })
      const other = await repos.signIns.issueRefreshToken({ ...family, family_id: 'fam-2' }, 3600, now)

      const rotated = await repos.signIns.rotateRefreshToken(first, now)
      assert.ok(!('refused' in rotated))
      assert.equal(rotated.family_id, 'fam-1')
      const second = await repos.signIns.issueRefreshToken(family, 3600, now)

      assert.deepEqual(await repos.signIns.rotateRefreshToken(first, now), { refused: 'replayed' })
      assert.deepEqual(await repos.signIns.rotateRefreshToken(second, now), { refused: 'revoked' })
      assert.equal(await repos.accessTokens.findByToken(access.token), undefined)
      assert.ok(await repos.accessTokens.findByToken(elsewhere.token), 'another sign-in keeps its tokens')
      assert.ok(!('refused' in (await repos.signIns.rotateRefreshToken(other, now))))
      assert.deepEqual(await repos.signIns.rotateRefreshToken('dsr_unknown', now), { refused: 'unknown' })
      const expiring = await repos.signIns.issueRefreshToken({ ...family, family_id: 'fam-3' }, 1, now)
      assert.deepEqual(await repos.signIns.rotateRefreshToken(expiring, later(now, 2)), {
        refused: 'expired',
      })
    })

    test('pending sign-ins expire, keep only the hash of their form token, and complete once', async (t) => {
      const { db, repos } = await open(t)
      const now = new Date()
      await repos.signIns.createRequest(pendingSignIn('p1', now))
      const csrf = await repos.signIns.issueCsrfToken('p1')
      assert.equal((await repos.signIns.findRequest('p1', now))?.csrf_hash, hashToken(csrf))
      assert.equal(await repos.signIns.findRequest('p1', later(now, 601)), undefined, 'expired')
      assert.equal(await repos.signIns.completeRequest('p1'), true)
      assert.equal(await repos.signIns.completeRequest('p1'), false)

      await repos.signIns.createRequest(pendingSignIn('p2', now))
      await repos.signIns.deleteExpired(later(now, 601))
      assert.equal(
        (await db.selectFrom('oauth_requests').select('id').execute()).length,
        0,
        'expired sign-ins are forgotten',
      )
    })
  })
}
