/** What the preview shows while docs.json is invalid: the diagnostics, and it reloads once fixed. */

import escapeHtml from 'escape-html'
import { type Diagnostic, formatDiagnostic } from '../../compiler/diagnostics.js'
import { injectLiveReload } from './live-reload.js'

export function renderErrorPage(title: string, diagnostics: readonly Diagnostic[]): string {
  const items = diagnostics
    .map(
      (diagnostic) =>
        `<li class="${diagnostic.severity}"><strong>${diagnostic.severity}</strong> <code>${escapeHtml(formatDiagnostic(diagnostic))}</code></li>`,
    )
    .join('')
  return injectLiveReload(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.6 system-ui,sans-serif;max-width:52rem;margin:3rem auto;padding:0 1.5rem;color:#17191c}h1{font-size:1.4rem}ul{padding:0;list-style:none}li{margin:.6rem 0;padding:.7rem 1rem;border-radius:.5rem;background:#fdecec}li.warning{background:#fff6e0}code{white-space:pre-wrap;font:14px ui-monospace,monospace}p{color:#5f6670}</style></head><body><main><h1>${escapeHtml(title)}</h1><ul>${items}</ul><p>Fix the file and save: this page reloads by itself.</p></main></body></html>\n`,
  )
}
