/** The page a reader sees on a host with no site, or on a site that has nothing published yet. */
import escapeHtml from 'escape-html'

export function missingSitePage(title: string, detail: string, advice: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.5rem;color:#17191c}p{color:#5f6670}</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(advice)}</p><p><small>${escapeHtml(detail)}</small></p></main></body></html>\n`
}
