/**
 * Git-connected deploys as one named plugin: the deliveries queue runner (`app.gitDeployer`), started
 * when the server is ready (picking up what a stopped server left) and stopped before the builds and
 * the database close, and the key each project's webhook secret is derived from (`app.gitWebhookKey`).
 * Its routes (a project's connection, each provider's webhook) are registered by the app, like every
 * route: this folder is a service below them.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { GitDeployer } from './deployer.js'
import { GitHubApp } from './github-app.js'
import { loadWebhookKey } from './secrets.js'

declare module 'fastify' {
  interface FastifyInstance {
    gitDeployer: GitDeployer
    /** The key every replica shares; `webhookSecretOf(key, projectId)` is one project's webhook secret. */
    gitWebhookKey: string
  }
}

const gitPlugin: FastifyPluginAsync = async (app) => {
  const { config } = app
  const webhookKey = await loadWebhookKey(config.git.webhookKey, app.repos.sharedSecrets, {
    dataDir: config.dataDir,
    readOnly: app.readOnly !== null,
  })
  app.decorate('gitWebhookKey', webhookKey)
  const github = GitHubApp.fromConfig(config.git.github)
  const deployer = new GitDeployer(app, github)
  app.decorate('gitDeployer', deployer)
  app.addHook('onReady', () => deployer.start())
  // Registered after the build pipeline's, so it runs first: a running delivery waits on its build.
  app.addHook('onClose', () => deployer.close())
}

export const gitDeploys = fp(gitPlugin, { name: 'git-deploys', dependencies: ['database'] })
