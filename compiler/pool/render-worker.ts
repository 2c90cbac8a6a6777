/**
 * A pool task: render one page of a shared site. The site's index is decoded once per worker and
 * build, so the pages of one build after the first cost this thread nothing but their render.
 */

import { currentThreadId } from '../../lib/threads.js'
import { createHighlighter } from '../highlight/index.js'
import type { RenderOutcome, RenderPageMessage } from './protocol.js'
import { renderOne } from './render-one.js'
import { readSiteIndex, siteFiles } from './shared-files.js'

let threadId = 0

let current: { id: string; files: Map<string, Uint8Array>; pageSlugs: Set<string> } | undefined

export default async function renderPageTask(message: RenderPageMessage): Promise<RenderOutcome> {
  const { site, task } = message
  // A fresh thread loads its highlighter first, so that cost never counts against a page's deadline.
  await createHighlighter()
  if (current?.id !== site.id) {
    const index = readSiteIndex(site)
    current = {
      id: site.id,
      files: siteFiles(site, index),
      pageSlugs: new Set(index.pageSlugs),
    }
  }
  const started = new Int32Array(message.started)
  // Which thread renders the page, so the pool can count its CPU time against the page's limit.
  threadId ||= currentThreadId()
  Atomics.store(started, 1, threadId)
  Atomics.store(started, 0, 1)
  Atomics.notify(started, 0)
  return renderOne(task, current.files, current.pageSlugs, site.mode)
}
