/**
 * Text written into a generated MDX page (docs/reference/): outside inline code, `<` would open a JSX
 * tag and `{` an expression, so both are escaped; inside backticks everything is literal already.
 */
export function mdxText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[<>{}]/g, (character) => `\\${character}`)))
    .join('')
}

/** Text for a Markdown table cell: as `mdxText`, with `|` escaped (it would end the cell) and no line breaks. */
export function mdxCell(text: string): string {
  return mdxText(text.replace(/\s*\n\s*/g, ' ')).replaceAll('|', '\\|')
}
