/**
 * A unified diff of two texts (`diff -u` style, 3 lines of context), for commands that rewrite an
 * author's files and show what they changed. Line-based; common head and tail are trimmed first, so
 * the quadratic longest-common-subsequence only runs over the changed middle.
 */
const CONTEXT = 3

type Edit = { kind: ' ' | '-' | '+'; line: string }

function lineEdits(before: string[], after: string[]): Edit[] {
  let head = 0
  while (head < before.length && head < after.length && before[head] === after[head]) head++
  let tail = 0
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++
  const a = before.slice(head, before.length - tail)
  const b = after.slice(head, after.length - tail)
  // lengths[i][j]: longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] =
        a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!)
  const middle: Edit[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      middle.push({ kind: ' ', line: a[i++]! })
      j++
    } else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!))
      middle.push({ kind: '-', line: a[i++]! })
    else middle.push({ kind: '+', line: b[j++]! })
  }
  return [
    ...before.slice(0, head).map((line): Edit => ({ kind: ' ', line })),
    ...middle,
    ...before.slice(before.length - tail).map((line): Edit => ({ kind: ' ', line })),
  ]
}

const splitLines = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))

/** `--- a/<file>` / `+++ b/<file>` and its hunks; '' when the texts are equal. */
export function unifiedDiff(file: string, before: string, after: string, fromFile = file): string {
  if (before === after) return ''
  const edits = lineEdits(splitLines(before), splitLines(after))
  const changed = edits.flatMap((edit, index) => (edit.kind === ' ' ? [] : [index]))
  const hunks: [number, number][] = []
  for (const index of changed) {
    const start = Math.max(0, index - CONTEXT)
    const end = Math.min(edits.length, index + CONTEXT + 1)
    const last = hunks.at(-1)
    if (last && start <= last[1]) last[1] = end
    else hunks.push([start, end])
  }
  let out = `--- ${before === '' ? '/dev/null' : `a/${fromFile}`}\n+++ b/${file}\n`
  for (const [start, end] of hunks) {
    let oldLine = 1
    let newLine = 1
    for (const edit of edits.slice(0, start)) {
      if (edit.kind !== '+') oldLine++
      if (edit.kind !== '-') newLine++
    }
    const slice = edits.slice(start, end)
    const oldCount = slice.filter((edit) => edit.kind !== '+').length
    const newCount = slice.filter((edit) => edit.kind !== '-').length
    out += `@@ -${oldCount ? oldLine : oldLine - 1},${oldCount} +${newCount ? newLine : newLine - 1},${newCount} @@\n`
    for (const edit of slice) out += `${edit.kind}${edit.line}\n`
  }
  return out
}
