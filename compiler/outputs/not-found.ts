/** The body of `404.html`, wrapped by the shell like any page (its links are relative to the site root). */
import escapeHtml from 'escape-html'
import { pageHref, ROOT_FILE_SLUG } from '../theme/urls.js'

export function renderNotFoundBody(homeSlug: string | undefined): string {
  const home = escapeHtml(pageHref(ROOT_FILE_SLUG, homeSlug ?? 'index'))
  return `<p>The page you are looking for does not exist or has moved.</p><p><a href="${home}">Go to the home page</a> or press <kbd>Ctrl</kbd> <kbd>K</kbd> to search.</p>`
}
