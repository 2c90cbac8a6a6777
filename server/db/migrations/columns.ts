/** Column definitions the migrations share. Like the migrations, never change one: add a new one. */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely'

/** A required reference to `parent`'s id; the row is deleted with its parent. */
export const deletedWith =
  (parent: string) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    column.notNull().references(`${parent}.id`).onDelete('cascade')

/** A new table of rows that each belong to one project: `id`, then `project_id`. */
export const createProjectRowsTable = (db: Kysely<unknown>, table: string) =>
  db.schema
    .createTable(table)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', deletedWith('projects'))
