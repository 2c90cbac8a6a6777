/**
 * Tiny helpers for the shell templates. Everything an author wrote goes through the one HTML escaper
 * of the codebase, the `escape-html` package, imported where it is used.
 */

/** Joins optional fragments, dropping empty ones, so templates read as lists of parts. */
export const join = (...parts: (string | false | undefined | null)[]): string =>
  parts.filter((part): part is string => typeof part === 'string' && part.length > 0).join('')
