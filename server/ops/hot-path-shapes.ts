/**
 * Keeps one object of each shape the site hot path allocates per request alive for the life of the
 * process: a `process.nextTick` entry and an HTTP request/response pair. Imported first by
 * `server/main.ts`, before anything else loads.
 *
 * Why: V8 lets a hidden class (map) die when no object uses it, and loading the API (hundreds of
 * modules, many major garbage collections) ran while no request object was alive. Each collection
 * that dropped those maps made the next request build new ones, and the inline caches in Node's own
 * `nextTick`, `OutgoingMessage` and `writeHead` saw a new map each time until they gave up on the fast
 * path for good: in about half of all starts, `nextTick` ran 3× slower (1M calls: 120–210 ms against
 * 41 ms) and a site answer cost 20 µs of CPU instead of 14 µs (`npm run bench:serve`). With these
 * objects alive the maps never change, the caches stay monomorphic, and every start is the fast one.
 */
import { createHook } from 'node:async_hooks'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'

const request = new IncomingMessage(new Socket())
const kept: { tick?: object; request: IncomingMessage; response: ServerResponse } = {
  request,
  response: new ServerResponse(request),
}

// The one way to reach a `nextTick` entry: the async hook that sees it created. On for one call only.
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') kept.tick ??= resource
  },
}).enable()
process.nextTick(() => {})
hook.disable()

/** The objects kept alive (for tests). */
export function keptShapes(): Readonly<typeof kept> {
  return kept
}
