/**
 * Every `docsctl` command, in the order `docsctl --help` lists them, and the Cli that registers them:
 * main.ts runs it, and the generated reference (cli/reference.ts) reads the same definitions, so a
 * command registered here is in the manual.
 */
import { Builtins, type CommandClass } from 'clipanion'
import { packageVersion } from '../lib/version.js'
import { A11yCommand } from './commands/a11y.js'
import { AnalyticsGetCommand } from './commands/analytics-get.js'
import { AnalyticsSetCommand } from './commands/analytics-set.js'
import { AnalyticsUnsetCommand } from './commands/analytics-unset.js'
import { BuildCommand } from './commands/build.js'
import { DeploymentsListCommand } from './commands/deployments-list.js'
import { DeploymentsPromoteCommand } from './commands/deployments-promote.js'
import { DeploymentsShowCommand } from './commands/deployments-show.js'
import { DevCommand } from './commands/dev.js'
import { DomainsAddCommand } from './commands/domains-add.js'
import { DomainsListCommand } from './commands/domains-list.js'
import { DomainsRemoveCommand } from './commands/domains-remove.js'
import { DomainsVerifyCommand } from './commands/domains-verify.js'
import { GitConnectCommand } from './commands/git/connect.js'
import { GitDisconnectCommand } from './commands/git/disconnect.js'
import { GitStatusCommand } from './commands/git/status.js'
import { InsightsCommand } from './commands/insights.js'
import { KeysCreateCommand } from './commands/keys-create.js'
import { KeysListCommand } from './commands/keys-list.js'
import { KeysRevokeCommand } from './commands/keys-revoke.js'
import { LoginCommand } from './commands/login.js'
import { LogoutCommand } from './commands/logout.js'
import { MigrateCommand } from './commands/migrate.js'
import { NewCommand } from './commands/new.js'
import { OpenCommand } from './commands/open.js'
import { OpenapiCheckCommand } from './commands/openapi-check.js'
import { ProjectsDeleteCommand } from './commands/projects-delete.js'
import { ProjectsListCommand } from './commands/projects-list.js'
import { ProjectsShowCommand } from './commands/projects-show.js'
import { PushCommand } from './commands/push.js'
import { RenameCommand } from './commands/rename.js'
import { UpgradeCommand } from './commands/upgrade.js'
import { ValidateCommand } from './commands/validate.js'
import { WhoamiCommand } from './commands/whoami.js'
import { DocsctlCli } from './help.js'

// One file per command path in commands/; list each here, in the order `docsctl --help` lists them.
export const docsctlCommands: readonly CommandClass[] = [
  LoginCommand,
  LogoutCommand,
  WhoamiCommand,
  NewCommand,
  MigrateCommand,
  UpgradeCommand,
  ValidateCommand,
  OpenapiCheckCommand,
  RenameCommand,
  A11yCommand,
  PushCommand,
  OpenCommand,
  AnalyticsGetCommand,
  AnalyticsSetCommand,
  AnalyticsUnsetCommand,
  InsightsCommand,
  DomainsListCommand,
  DomainsAddCommand,
  DomainsRemoveCommand,
  DomainsVerifyCommand,
  GitConnectCommand,
  GitStatusCommand,
  GitDisconnectCommand,
  ProjectsListCommand,
  ProjectsShowCommand,
  ProjectsDeleteCommand,
  DeploymentsListCommand,
  DeploymentsShowCommand,
  DeploymentsPromoteCommand,
  KeysCreateCommand,
  KeysListCommand,
  KeysRevokeCommand,
  DevCommand,
  BuildCommand,
]

export function createDocsctlCli(enableColors: boolean): DocsctlCli {
  const cli = new DocsctlCli({
    binaryLabel: 'docsctl',
    binaryName: 'docsctl',
    binaryVersion: packageVersion,
    enableColors,
  })
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  for (const command of docsctlCommands) cli.register(command)
  return cli
}
