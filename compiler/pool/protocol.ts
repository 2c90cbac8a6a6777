/** Messages between the build and its render workers. Everything is structured-clone friendly. */
import type { ValidationMode } from '../config/types.js'
import type { RenderedPage } from '../content/render-page.js'

export interface RenderTask {
  file: string
  slug: string
}

/** Sent once per worker: the site's files packed into one shared buffer, so no worker copies them. */
export interface WorkerInit {
  buffer: SharedArrayBuffer
  /** [path, byte offset, byte length] of every file in `buffer`. */
  layout: [string, number, number][]
  pageSlugs: string[]
  mode: ValidationMode
}

export type RenderOutcome =
  | { ok: true; page: RenderedPage; highlightCalls: number }
  | { ok: false; message: string }

export interface TaskMessage {
  id: number
  task: RenderTask
}

export interface ResultMessage {
  id: number
  outcome: RenderOutcome
}
