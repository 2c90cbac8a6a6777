/** Secrets every replica shares (migration 012), on both sqlEngines: made once, whoever asks first. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { migrateToLatest, openDatabase } from '../../../../server/db/index.js'
import { createRepositories } from '../../../../server/db/repositories/index.js'
import { sqlEngines, testConfig } from '../../helper.js'

for (const engine of sqlEngines) {
  describe(`shared secrets (${engine})`, () => {
    test('replicas that ask at once all get one secret, the one that was stored first', async (t) => {
      const config = await testConfig(t, engine)
      // Three connections to one database, as three replicas (each its own pool) would have.
      const replicas = [0, 1, 2].map(() => {
        const { db, schema } = openDatabase(config)
        t.after(() => db.destroy())
        return { db, schema, repos: createRepositories(db) }
      })
      await migrateToLatest(replicas[0]!.db, replicas[0]!.schema)
      assert.equal(await replicas[0]!.repos.sharedSecrets.find('git-webhook-key'), undefined)
      const keys = await Promise.all(
        replicas.map(({ repos }, index) =>
          repos.sharedSecrets.findOrStore('git-webhook-key', () => `key of replica ${index}`),
        ),
      )
      assert.equal(new Set(keys).size, 1, keys.join(', '))
      assert.match(keys[0]!, /^key of replica \d$/)
      const later = await replicas[2]!.repos.sharedSecrets.findOrStore('git-webhook-key', () => 'another key')
      assert.equal(later, keys[0], 'a secret once stored is never replaced')
    })
  })
}
