/** Project slugs as docs.json and `docsctl new` write them: one DNS label, the site's subdomain. */

/** Same rule as `slug` in schemas/docs.schema.json. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/

/** Host labels that must never become a site, because the service or a mail/CDN set-up may need them. */
export const reservedSlugs = new Set([
  'api',
  'www',
  'admin',
  'app',
  'docs',
  'static',
  'assets',
  'mail',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'cdn',
  'dashboard',
  'auth',
  'login',
  'oauth',
  'status',
  'help',
  'support',
  'blog',
  'dev',
  'staging',
  'preview',
  'localhost',
  'root',
  'system',
  'internal',
  'ns1',
  'ns2',
  'mx',
  'webmail',
  'billing',
  'security',
])

/** Why `slug` cannot be a project slug, or `undefined` when it can. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length < 3 || slug.length > 63) return 'must be 3 to 63 characters'
  if (!/^[a-z0-9-]+$/.test(slug)) return 'may hold only lowercase letters a-z, digits and "-"'
  if (slug.startsWith('-') || slug.endsWith('-')) return 'must not start or end with "-"'
  // `<preview-token>--<slug>` is a preview host; a slug with "--" would be ambiguous there.
  if (slug.includes('--')) return 'must not contain "--" (reserved for preview hosts)'
  if (reservedSlugs.has(slug)) return 'is reserved for the service; choose another'
  return undefined
}

/** "My Docs!" → "my-docs"; accents dropped, runs of other characters become one "-". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/g, '')
}

/** "acme-docs" → "Acme Docs": the display name `docsctl new` derives from a slug. */
export function titleCase(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}
