/**
 * Git-connected deploys as one named plugin: the deliveries queue runner (`app.gitDeployer`), started
 * when the server is ready (picking up what a stopped server left) and stopped before the builds and
 * the database close, and the routes: the connection of a project and the webhook of each provider.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { gitRoutes } from '../routes/git.js'
import { gitWebhookRoutes } from '../routes/git-webhooks.js'
import { GitDeployer } from './deployer.js'
import { GitHubApp } from './github-app.js'
import { loadWebhookKey } from './secrets.js'

declare module 'fastify' {
  interface FastifyInstance {
    gitDeployer: GitDeployer
  }
}

const gitPlugin: FastifyPluginAsync = async (app) => {
  const { config } = app
  const webhookKey = loadWebhookKey(config.git.webhookKey, config.dataDir)
  const github = GitHubApp.fromConfig(config.git.github)
  const deployer = new GitDeployer(app, github)
  app.decorate('gitDeployer', deployer)
  app.addHook('onReady', () => deployer.start())
  // Registered after the build pipeline's, so it runs first: a running delivery waits on its build.
  app.addHook('onClose', () => deployer.close())
  await app.register(gitRoutes, { webhookKey })
  await app.register(gitWebhookRoutes, { webhookKey })
}

export const gitDeploys = fp(gitPlugin, { name: 'git-deploys', dependencies: ['database'] })
