/**
 * A unified diff of two texts (`diff -u` style, 3 lines of context), for what rewrites an author's files
 * and shows what changed (`docsctl migrate`, `upgrade`, `rename`) and for a preview's change report
 * (server/previews/change-report.ts). The hunks are jsdiff's (`structuredPatch`, Myers' algorithm); only the
 * header is ours: `--- a/<file>` (or `/dev/null` for a new file) and `+++ b/<file>`, as git prints them.
 */
import { lazyPackage } from './lazy-package.js'

const jsdiff = lazyPackage<typeof import('diff')>('diff')

const CONTEXT = 3

/** `--- a/<file>` / `+++ b/<file>` and its hunks; '' when the texts are equal. */
export function unifiedDiff(file: string, before: string, after: string, fromFile = file): string {
  if (before === after) return ''
  const { hunks } = jsdiff().structuredPatch(fromFile, file, before, after, undefined, undefined, {
    context: CONTEXT,
  })
  let out = `--- ${before === '' ? '/dev/null' : `a/${fromFile}`}\n+++ b/${file}\n`
  for (const hunk of hunks) {
    // An empty side starts before its first line, as `diff -u` writes it (`-0,0`).
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart
    out += `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`
    for (const line of hunk.lines) out += `${line}\n`
  }
  return out
}
