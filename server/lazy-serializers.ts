/**
 * Response serializers compiled when a route first answers, not when the app starts. Fastify compiles
 * every route's response schema with fast-json-stringify as the app gets ready: for this API's 330
 * serializers that is about 0.5 CPU-seconds of a warm start and more of a cold one (`npm run
 * bench:start`: 692 ms a start with them, 160–189 ms without), paid by every `docs-server` start and
 * every test app, though a process answers few of its routes soon and some never. Here each
 * route's serializer is Fastify's own, made by its own compiler (`@fastify/fast-json-stringify-compiler`
 * through the public `schemaController.compilersFactory` option), on the route's first answer; after
 * that it is the same function. `compilePendingSerializers` compiles the rest at once: the test that
 * every response schema compiles (test/server/lazy-serializers.test.ts) calls it, so a bad schema still
 * fails a test rather than a reader's request.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serializer = ReturnType<ReturnType<SerializerFactory>>

/** Serializers made but not yet compiled, in every app of this process. */
const pending = new Set<() => Serializer>()

/** Fastify's serializer factory, each route's compilation put off until its first answer. */
export function lazySerializers(): SerializerFactory {
  const factory = SerializerSelector()
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options)
    return (route) => {
      let serializer: Serializer | undefined
      const compileNow = (): Serializer => {
        pending.delete(compileNow)
        serializer ??= compile(route)
        return serializer
      }
      pending.add(compileNow)
      return (document) => (serializer ?? compileNow())(document)
    }
  }
}

/** Compiles every serializer still waiting for its route's first answer; returns how many it compiled. */
export function compilePendingSerializers(): number {
  const waiting = [...pending]
  for (const compileNow of waiting) compileNow()
  return waiting.length
}
