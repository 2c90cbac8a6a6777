/**
 * A deployment's diagnostics move out of its row into one row each, numbered from 0 (errors first), so
 * a page of them is one indexed query and a list of deployments or a site request never reads them;
 * the deployment keeps their count and its errors' count. Diagnostics stored before are shortened and
 * capped on the way (a thousand 50,000-character messages made rows of 50 MB).
 */
import type { Kysely } from 'kysely'
import { capDiagnostics, type Diagnostic } from '../../../compiler/diagnostics.js'
import { deletedWith } from './columns.js'

export interface DeploymentDiagnosticsTable {
  deployment_id: string
  /** Place in the deployment's list, from 0: errors first, then warnings, each as the build sorted them. */
  seq: number
  severity: 'error' | 'warning'
  file: string
  line: number | null
  column: number | null
  path: string | null
  rule: string
  message: string
}

declare module '../schema.js' {
  interface Database {
    deployment_diagnostics: DeploymentDiagnosticsTable
  }
  interface DeploymentsTable {
    /** Rows of `deployment_diagnostics` the deployment holds, and how many of them are errors. */
    diagnostic_count: number
    error_count: number
  }
}

// Before this migration the rows carried their diagnostics as JSON.
type OldDeployments = Kysely<{ deployments: { id: string; diagnostics: string } }>
type Diagnostics = Kysely<{
  deployment_diagnostics: DeploymentDiagnosticsTable
  deployments: { id: string; diagnostic_count: number; error_count: number }
}>

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deployment_diagnostics')
    .addColumn('deployment_id', 'text', deletedWith('deployments'))
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('severity', 'text', (column) => column.notNull())
    .addColumn('file', 'text', (column) => column.notNull())
    .addColumn('line', 'integer')
    .addColumn('column', 'integer')
    .addColumn('path', 'text')
    .addColumn('rule', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('deployment_diagnostics_pk', ['deployment_id', 'seq'])
    .execute()
  await db.schema
    .alterTable('deployments')
    .addColumn('diagnostic_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('deployments')
    .addColumn('error_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  const old = db as unknown as OldDeployments
  const moved = db as unknown as Diagnostics
  const ids = await old.selectFrom('deployments').select('id').where('diagnostics', '<>', '[]').execute()
  // One row at a time: a row of that time may hold megabytes.
  for (const { id } of ids) {
    const row = await old
      .selectFrom('deployments')
      .select('diagnostics')
      .where('id', '=', id)
      .executeTakeFirst()
    let diagnostics: Diagnostic[] = []
    try {
      const parsed: unknown = JSON.parse(row?.diagnostics ?? '[]')
      if (Array.isArray(parsed)) diagnostics = parsed as Diagnostic[]
    } catch {}
    const kept = capDiagnostics(diagnostics, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)
    for (let start = 0; start < kept.length; start += 200) {
      await moved
        .insertInto('deployment_diagnostics')
        .values(
          kept.slice(start, start + 200).map((diagnostic, index) => ({
            deployment_id: id,
            seq: start + index,
            severity: diagnostic.severity,
            file: diagnostic.file,
            line: diagnostic.line ?? null,
            column: diagnostic.column ?? null,
            path: diagnostic.path ?? null,
            rule: diagnostic.rule,
            message: diagnostic.message,
          })),
        )
        .execute()
    }
    await moved
      .updateTable('deployments')
      .set({
        diagnostic_count: kept.length,
        error_count: kept.filter((diagnostic) => diagnostic.severity === 'error').length,
      })
      .where('id', '=', id)
      .execute()
  }
  await db.schema.alterTable('deployments').dropColumn('diagnostics').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('deployments')
    .addColumn('diagnostics', 'text', (column) => column.notNull().defaultTo('[]'))
    .execute()
  await db.schema.alterTable('deployments').dropColumn('error_count').execute()
  await db.schema.alterTable('deployments').dropColumn('diagnostic_count').execute()
  await db.schema.dropTable('deployment_diagnostics').execute()
}
