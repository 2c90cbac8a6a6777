/**
 * An unverified custom-domain claim no longer holds its (hostname, prefix) for everyone: several
 * projects may claim one name, each with its own TXT value, and the first to prove it in DNS takes it.
 * The one index over all live claims becomes two: a project claims a name once while its claim lives,
 * and only one claim of a name is verified at a time.
 */
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('domains_live_claim').execute()
  await db.schema
    .createIndex('domains_project_claim')
    .on('domains')
    .columns(['project_id', 'hostname', 'path_prefix'])
    .unique()
    .where(sql.ref('status'), '<>', 'expired')
    .execute()
  await db.schema
    .createIndex('domains_verified_claim')
    .on('domains')
    .columns(['hostname', 'path_prefix'])
    .unique()
    .where(sql.ref('status'), '=', 'verified')
    .execute()
}

/** Back to one live claim per name: the verified one is kept, else the oldest; the others expire. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update domains set status = 'expired', failure_reason = 'expired',
      failure_message = 'Another project claimed this name first.'
    where status <> 'expired' and exists (
      select 1 from domains as other
      where other.hostname = domains.hostname and other.path_prefix = domains.path_prefix
        and other.status <> 'expired' and other.id <> domains.id
        and (other.status = 'verified' or (domains.status <> 'verified' and
          (other.created_at < domains.created_at or (other.created_at = domains.created_at and other.id < domains.id)))))
  `.execute(db)
  await db.schema.dropIndex('domains_verified_claim').execute()
  await db.schema.dropIndex('domains_project_claim').execute()
  await db.schema
    .createIndex('domains_live_claim')
    .on('domains')
    .columns(['hostname', 'path_prefix'])
    .unique()
    .where(sql.ref('status'), '<>', 'expired')
    .execute()
}
