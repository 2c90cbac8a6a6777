/** Tiny HTML helpers for the shell templates: everything an author wrote goes through `escapeHtml`. */
const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => escapes[char] ?? char)

/** Joins optional fragments, dropping empty ones, so templates read as lists of parts. */
export const join = (...parts: (string | false | undefined | null)[]): string =>
  parts.filter((part): part is string => typeof part === 'string' && part.length > 0).join('')
