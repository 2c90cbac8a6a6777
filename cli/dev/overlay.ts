/**
 * The preview's error overlay: a page's problems, worded as `docsctl validate` words them (file:line,
 * what is wrong, the fix), in a panel over the page. Under it is the page as it last built without
 * errors, so an author keeps their place while fixing; the panel closes without script (a dialog
 * form), and the live reload brings the fixed page.
 */
import escapeHtml from 'escape-html'
import { type Diagnostic, formatDiagnostic } from '../../compiler/diagnostics.js'

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

export function injectErrorOverlay(
  html: string,
  diagnostics: readonly Diagnostic[],
  showing: 'last-good' | 'current',
): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
  const warnings = diagnostics.length - errors
  const items = diagnostics
    .map(
      (diagnostic) =>
        `<li style="margin:.5rem 0;padding:.6rem .8rem;border-radius:.4rem;background:${diagnostic.severity === 'error' ? '#fdecec' : '#fff6e0'}"><strong>${diagnostic.severity}</strong> <code style="white-space:pre-wrap;font:13px/1.5 ui-monospace,monospace">${escapeHtml(formatDiagnostic(diagnostic))}</code></li>`,
    )
    .join('')
  const under =
    showing === 'last-good'
      ? 'Under this panel: the page as it last built without errors.'
      : 'Under this panel: the page as it builds now, with the problems in it.'
  const panel = `<dialog open id="docsctl-errors" role="alertdialog" aria-labelledby="docsctl-errors-title" style="position:fixed;inset:auto 1rem 1rem auto;z-index:2147483647;max-width:min(46rem,calc(100vw - 2rem));max-height:70vh;overflow:auto;margin:0;padding:1rem 1.25rem;border:1px solid #e0b4b4;border-radius:.6rem;background:#fff;color:#17191c;box-shadow:0 10px 30px rgba(0,0,0,.25);font:15px/1.5 system-ui,sans-serif"><h2 id="docsctl-errors-title" style="margin:0 0 .25rem;font-size:1.05rem">docsctl dev: ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}</h2><ul style="list-style:none;padding:0;margin:0">${items}</ul><p style="margin:.5rem 0 0;color:#5f6670">${under} Fix the file and save: the page reloads by itself.</p><form method="dialog" style="margin:.5rem 0 0"><button style="font:inherit;padding:.25rem .75rem">Hide</button></form></dialog>`
  const at = html.lastIndexOf('</body>')
  return at < 0 ? html + panel : html.slice(0, at) + panel + html.slice(at)
}
