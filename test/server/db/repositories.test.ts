/** The repositories on both sqlEngines: same migrations, same queries, same answers. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { migrateToLatest, openDatabase } from '../../../server/db/index.js'
import { createRepositories } from '../../../server/db/repositories/index.js'
import { needs } from '../../tier.js'
import { markVerified } from '../domains/dns-server.js'
import { freshSchema, postgresUrl, sha256, sqlEngines, testConfig } from '../helper.js'
import { ownerWithProject } from './helper.js'

for (const engine of sqlEngines) {
  describe(`repositories (${engine})`, () => {
    const open = async (t: Parameters<typeof testConfig>[0]) => {
      const config = await testConfig(t, engine)
      const { db, engine: opened, schema } = openDatabase(config)
      t.after(() => db.destroy())
      assert.equal(opened, engine)
      const applied = await migrateToLatest(db, schema)
      assert.ok(applied.includes('001_core'))
      assert.deepEqual(await migrateToLatest(db, schema), [], 'a second run applies nothing')
      return { db, repos: createRepositories(db) }
    }

    test('users are found or created by e-mail, case-insensitively; tokens expire', async (t) => {
      const { repos } = await open(t)
      const user = await repos.users.findOrCreate('Ada@Example.com', 'Ada')
      assert.equal(user.email, 'ada@example.com')
      assert.equal((await repos.users.findOrCreate('ada@example.com')).id, user.id)
      const { token, expiresAt } = await repos.accessTokens.issue(user.id, 60)
      assert.match(token, /^dsa_[A-Za-z0-9_-]{43}$/)
      assert.ok(Date.parse(expiresAt) > Date.now())
    })

    test('projects: unique slugs, update, promotion is one row', async (t) => {
      const { repos } = await open(t)
      const { owner, project } = await ownerWithProject(repos, 'o@example.com', 'one', 'One')
      assert.ok(project)
      assert.equal(
        await repos.projects.create({ ownerId: owner.id, slug: 'one', name: 'Two', description: null }),
        undefined,
      )
      const updated = await repos.projects.update(project.id, { name: 'Uno', deploymentName: 'v1' })
      assert.equal(updated?.name, 'Uno')
      assert.equal(updated?.deployment_name, 'v1')
      await repos.projects.setLiveDeployment(project.id, 'dpl_x')
      assert.equal((await repos.projects.findBySlug('one'))?.live_deployment_id, 'dpl_x')
      assert.deepEqual(
        (await repos.projects.listByOwner(owner.id)).map((row) => row.slug),
        ['one'],
      )
    })

    test('a build that finishes after a newer live deployment does not replace it', async (t) => {
      const { repos } = await open(t)
      const { project } = await ownerWithProject(repos, 'race@example.com', 'race', 'Race')
      assert.ok(project)
      const files = [{ path: 'a.mdx', sha256: sha256('a'), size: 1 }]
      // Builds finish in any order: the older one finishing last must not replace the newer live site.
      const build = (commitMessage: string) =>
        repos.deployments.create({
          projectId: project.id,
          branch: 'main',
          commitMessage,
          environment: null,
          files,
          blobExists: async () => true,
        })
      const older = (await build('older')).deployment
      await new Promise((resolve) => setTimeout(resolve, 5))
      const newer = (await build('newer')).deployment
      assert.equal(await repos.projects.promoteBuilt(project.id, newer.id, newer.created_at), true)
      assert.equal(await repos.projects.promoteBuilt(project.id, older.id, older.created_at), false)
      assert.equal((await repos.projects.findById(project.id))?.live_deployment_id, newer.id)
    })

    test('deployments: held hashes are not asked for again; pages newest first; one build claim', async (t) => {
      const { repos } = await open(t)
      const { project } = await ownerWithProject(repos, 'o@example.com', 'dep', 'Dep')
      assert.ok(project)
      const files = [
        { path: 'a.mdx', sha256: sha256('a'), size: 1 },
        { path: 'b.mdx', sha256: sha256('b'), size: 1 },
        { path: 'copy-of-a.mdx', sha256: sha256('a'), size: 1 },
      ]
      const first = await repos.deployments.create({
        projectId: project.id,
        branch: 'main',
        commitMessage: 'one',
        environment: null,
        files,
        blobExists: async () => true,
      })
      assert.deepEqual([...first.missing].sort(), [sha256('a'), sha256('b')].sort())
      await repos.deployments.markReceived(first.deployment.id, sha256('a'))
      assert.deepEqual(await repos.deployments.missingPaths(first.deployment.id), ['b.mdx'])
      assert.deepEqual(await repos.deployments.missingHashes(first.deployment.id), [sha256('b')])

      const second = await repos.deployments.create({
        projectId: project.id,
        branch: 'main',
        commitMessage: 'two',
        environment: 'preview',
        files,
        blobExists: async () => true,
      })
      assert.deepEqual(second.missing, [sha256('b')])
      const gone = await repos.deployments.create({
        projectId: project.id,
        branch: 'main',
        commitMessage: 'three',
        environment: null,
        files,
        blobExists: async () => false,
      })
      assert.equal(gone.missing.length, 2, 'a hash whose blob vanished is asked for again')

      const page = await repos.deployments.list(project.id, 2)
      assert.deepEqual(
        page.deployments.map((row) => row.commit_message),
        ['three', 'two'],
      )
      assert.ok(page.nextCursor)
      const { decodeCursor } = await import('../../../server/db/repositories/deployments.js')
      const rest = await repos.deployments.list(project.id, 2, decodeCursor(page.nextCursor))
      assert.deepEqual(
        rest.deployments.map((row) => row.commit_message),
        ['one'],
      )
      assert.equal(rest.nextCursor, null)

      assert.equal(await repos.deployments.claimForBuild(first.deployment.id, 5), true)
      assert.equal(await repos.deployments.claimForBuild(first.deployment.id, 5), false)
      assert.equal(await repos.deployments.failInterrupted(), 1)
      assert.equal((await repos.deployments.findById(first.deployment.id))?.status, 'failed')
    })

    test('deploy keys are stored hashed, listed, revoked; a domain claim is made once and serves once verified', async (t) => {
      const { repos } = await open(t)
      const { project } = await ownerWithProject(repos, 'o@example.com', 'keys', 'K')
      assert.ok(project)
      const { token, deployKey } = await repos.deployKeys.create(project.id, 'ci')
      assert.equal(deployKey.prefix, token.slice(0, 10))
      assert.equal((await repos.deployKeys.listActive(project.id)).length, 1)
      assert.equal(await repos.deployKeys.revoke(project.id, deployKey.id), true)
      assert.equal(await repos.deployKeys.revoke(project.id, deployKey.id), false)
      assert.equal((await repos.deployKeys.listActive(project.id)).length, 0)

      const domain = await repos.domains.create({
        projectId: project.id,
        hostname: 'docs.example.com',
        pathPrefix: '/docs',
      })
      assert.ok(domain)
      assert.equal(
        await repos.domains.create({
          projectId: project.id,
          hostname: 'docs.example.com',
          pathPrefix: '/docs',
        }),
        undefined,
        'the same (hostname, prefix) is claimed once',
      )
      assert.deepEqual(await repos.domains.servingMounts('docs.example.com'), [], 'pending: not served')
      await markVerified(repos, domain)
      assert.equal((await repos.domains.servingMounts('docs.example.com'))[0]?.pathPrefix, '/docs')
      assert.equal(await repos.domains.isVerifiedHost('docs.example.com'), true)
      await repos.domains.remove(domain.id)
      assert.deepEqual(await repos.domains.servingMounts('docs.example.com'), [])
    })

    test('analytics settings are set, replaced, read per project and removed', async (t) => {
      const { repos } = await open(t)
      const owner = await repos.users.findOrCreate('ada@example.com')
      const create = (slug: string) =>
        repos.projects.create({ ownerId: owner.id, slug, name: slug, description: null })
      const [project, other] = [await create('one'), await create('two')]
      assert.ok(project && other)
      assert.equal(await repos.analytics.posthogOf(project.id), undefined)
      await repos.analytics.setPosthog(project.id, { key: 'phc_first', host: 'https://eu.i.posthog.com' })
      await repos.analytics.setPosthog(project.id, { key: 'phc_second', host: 'https://us.i.posthog.com' })
      assert.deepEqual(await repos.analytics.posthogOf(project.id), {
        key: 'phc_second',
        host: 'https://us.i.posthog.com',
      })
      assert.equal(await repos.analytics.posthogOf(other.id), undefined)
      await repos.analytics.remove(project.id)
      assert.equal(await repos.analytics.posthogOf(project.id), undefined)
    })
  })
}

test('two PostgreSQL schemas side by side each get their own migrations', {
  skip: needs('PostgreSQL'),
}, async (t) => {
  const schemas = [await freshSchema(t), await freshSchema(t)]
  for (const databaseSchema of schemas) {
    const { db, schema } = openDatabase({ dataDir: '', databaseUrl: postgresUrl, databaseSchema })
    t.after(() => db.destroy())
    assert.ok((await migrateToLatest(db, schema)).includes('001_core'), databaseSchema)
  }
})
