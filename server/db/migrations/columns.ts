/** Column definitions the migrations share. Like the migrations, never change one: add a new one. */
import type { ColumnDefinitionBuilder } from 'kysely'

/** A required reference to `parent`'s id; the row is deleted with its parent. */
export const deletedWith =
  (parent: string) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    column.notNull().references(`${parent}.id`).onDelete('cascade')
