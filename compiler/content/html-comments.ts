/**
 * `<!-- comments -->` are valid Markdown but not MDX. Pages written for Markdown-first platforms use
 * them, so after a failed parse we blank them out (outside fenced code, keeping every newline so
 * positions stay true) and try again.
 */
export function blankHtmlComments(source: string): { text: string; count: number } {
  let count = 0
  let fence: string | undefined
  const lines = source.split('\n')
  let inComment = false
  const out = lines.map((line) => {
    if (!inComment) {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
      if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
        fence = fence === undefined ? marker : undefined
        return line
      }
      if (fence !== undefined) return line
    }
    let result = ''
    let rest = line
    while (rest.length > 0) {
      if (inComment) {
        const end = rest.indexOf('-->')
        if (end === -1) {
          result += ' '.repeat(rest.length)
          rest = ''
        } else {
          result += ' '.repeat(end + 3)
          rest = rest.slice(end + 3)
          inComment = false
        }
      } else {
        const start = rest.indexOf('<!--')
        if (start === -1) {
          result += rest
          rest = ''
        } else {
          count++
          result += rest.slice(0, start)
          rest = rest.slice(start)
          inComment = true
        }
      }
    }
    return result
  })
  return { text: out.join('\n'), count }
}
