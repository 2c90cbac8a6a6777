/** Renders one page with the process's highlighter; a crash becomes an outcome, never a thrown error. */
import type { ValidationMode } from '../config/types.js'
import { renderPage } from '../content/render-page.js'
import { capDiagnostics, sortDiagnostics } from '../diagnostics.js'
import { decodeUtf8, type SourceFiles } from '../files.js'
import { createHighlighter } from '../highlight/index.js'
import type { RenderOutcome, RenderTask } from './protocol.js'

export async function renderOne(
  task: RenderTask,
  files: SourceFiles,
  pageSlugs: ReadonlySet<string>,
  mode: ValidationMode,
): Promise<RenderOutcome> {
  const bytes = files.get(task.file)
  const source = bytes ? decodeUtf8(bytes) : undefined
  if (source === undefined) return { ok: false, message: `${task.file} is not valid UTF-8 text` }
  try {
    const highlighter = await createHighlighter()
    const before = highlighter.calls
    const page = await renderPage({
      file: task.file,
      slug: task.slug,
      source,
      files,
      pageSlugs,
      mode,
      highlighter,
    })
    // Capped here, so neither the build result nor the build cache carries a page's flood of warnings.
    page.diagnostics = sortDiagnostics(capDiagnostics(page.diagnostics))
    return { ok: true, page, highlightCalls: highlighter.calls - before }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
