/**
 * Two versions of a small site: the live one, and a change that edits one page (its Install heading
 * renamed, which breaks the home page's link to `setup#install`) and renames another without a
 * redirect (billing → payments, which breaks the home page's link to it).
 */
const docsJson = (pages: string[], extra: Record<string, unknown>) =>
  JSON.stringify({ name: 'Acme', ...extra, navigation: { groups: [{ group: 'Start', pages }] } })
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`
const billing = page(
  'Billing',
  'Invoices are sent monthly.\n\nPay by card or by transfer.\n\nTaxes are added.',
)
const home = page('Home', 'Welcome. See [setup](/setup#install) and [billing](/billing).')

export const liveFiles = (extra: Record<string, unknown> = {}): Record<string, string> => ({
  'docs.json': docsJson(['index', 'setup', 'billing', 'faq'], extra),
  'index.mdx': home,
  'setup.mdx': page('Setup', '## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.'),
  'billing.mdx': billing,
  'faq.mdx': page('FAQ', 'Questions and answers.'),
})

export const previewFiles = (extra: Record<string, unknown> = {}): Record<string, string | null> => ({
  'docs.json': docsJson(['index', 'setup', 'payments', 'faq'], extra),
  'setup.mdx': page('Setup', '## Installation\n\nRun the installer.\n\n## Configure\n\nEdit the file.'),
  'billing.mdx': null,
  'payments.mdx': billing,
})

/** A folder of files as `deploy()` takes it: the live files, then `changes` (null deletes). */
export function siteOf(...layers: Record<string, string | null>[]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  for (const layer of layers)
    for (const [path, text] of Object.entries(layer)) {
      if (text === null) files.delete(path)
      else files.set(path, Buffer.from(text))
    }
  return files
}
