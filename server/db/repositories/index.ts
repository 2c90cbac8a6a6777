/** Every repository over one Kysely instance; app.ts decorates the Fastify instance with this as `repos`. */
import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { deployKeysRepository } from './deploy-keys.js'
import { deploymentsRepository } from './deployments.js'
import { domainsRepository } from './domains.js'
import { projectsRepository } from './projects.js'
import { accessTokensRepository, usersRepository } from './users.js'

export function createRepositories(db: Kysely<Database>) {
  return {
    users: usersRepository(db),
    accessTokens: accessTokensRepository(db),
    projects: projectsRepository(db),
    deployments: deploymentsRepository(db),
    deployKeys: deployKeysRepository(db),
    domains: domainsRepository(db),
  }
}

export type Repositories = ReturnType<typeof createRepositories>
