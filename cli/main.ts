#!/usr/bin/env node
import { Builtins } from 'clipanion'
import { raiseInterruptBudget } from '../lib/jit-budget.js'
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

// Commands load the compiler and other heavy modules inside execute(), never at the top of their
// file: every command is imported here, and `docsctl whoami` should not pay for parsing MDX.
// Before any command starts a thread: builds spend a third of their CPU in V8's compiler otherwise.
raiseInterruptBudget(16)

// One file per command path in commands/; register each here, in the order `docsctl --help` lists them.
// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
const enableColors = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR
const cli = new DocsctlCli({
  binaryLabel: 'docsctl',
  binaryName: 'docsctl',
  binaryVersion: packageVersion,
  enableColors,
})
cli.register(Builtins.HelpCommand)
cli.register(Builtins.VersionCommand)
cli.register(LoginCommand)
cli.register(LogoutCommand)
cli.register(WhoamiCommand)
cli.register(NewCommand)
cli.register(MigrateCommand)
cli.register(UpgradeCommand)
cli.register(ValidateCommand)
cli.register(OpenapiCheckCommand)
cli.register(RenameCommand)
cli.register(A11yCommand)
cli.register(PushCommand)
cli.register(OpenCommand)
cli.register(AnalyticsGetCommand)
cli.register(AnalyticsSetCommand)
cli.register(AnalyticsUnsetCommand)
cli.register(InsightsCommand)
cli.register(DomainsListCommand)
cli.register(DomainsAddCommand)
cli.register(DomainsRemoveCommand)
cli.register(DomainsVerifyCommand)
cli.register(GitConnectCommand)
cli.register(GitStatusCommand)
cli.register(GitDisconnectCommand)
cli.register(ProjectsListCommand)
cli.register(ProjectsShowCommand)
cli.register(ProjectsDeleteCommand)
cli.register(DeploymentsListCommand)
cli.register(DeploymentsShowCommand)
cli.register(DeploymentsPromoteCommand)
cli.register(KeysCreateCommand)
cli.register(KeysListCommand)
cli.register(KeysRevokeCommand)
cli.register(DevCommand)
cli.register(BuildCommand)

const [, , ...args] = process.argv
process.exitCode = await cli.run(args)
