import assert from 'node:assert/strict'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { fromPackageRoot } from '../../../compiler/assets.js'
import { testApp } from '../helper.js'

/** Every route the app registers, as `METHOD /path/{param}`, seen through Fastify's own start-up channel. */
async function appWithRouteList(t: Parameters<typeof testApp>[0]) {
  const registered: string[] = []
  const onInitialization = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance }
    fastify.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue
        registered.push(`${method} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      }
    })
  }
  subscribe('fastify.initialization', onInitialization)
  try {
    return { app: await testApp(t), registered }
  } finally {
    unsubscribe('fastify.initialization', onInitialization)
  }
}

test('GET /openapi.json is a valid OpenAPI 3.1 document listing every route', async (t) => {
  const { app, registered } = await appWithRouteList(t)
  const document = (await app.inject({ url: '/openapi.json' })).json()

  const validator = new Validator()
  const result = await validator.validate(document)
  assert.deepEqual(result.errors, undefined)
  assert.equal(result.valid, true)
  assert.equal(validator.version, '3.1')
  // Every `$ref` points at a component that exists.
  assert.doesNotThrow(() => validator.resolveRefs())

  const { version } = JSON.parse(await readFile(fromPackageRoot('package.json'), 'utf8'))
  assert.equal(document.info.version, version)

  const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  )
  // The document itself is the only route it leaves out.
  const expected = registered.filter((route) => route !== 'GET /openapi.json')
  assert.ok(expected.length > 20, `only ${expected.length} routes seen`)
  assert.deepEqual(documented.sort(), expected.sort())

  for (const [path, operations] of Object.entries(
    document.paths as Record<string, Record<string, { tags?: string[]; summary?: string }>>,
  )) {
    for (const [method, operation] of Object.entries(operations)) {
      assert.ok(operation.tags?.length, `${method} ${path} has no tag`)
      assert.ok(operation.summary, `${method} ${path} has no summary`)
    }
  }
})

test('/openapi.json names the shared shapes as components and keeps their defaults', async (t) => {
  const app = await testApp(t)
  const document = (await app.inject({ url: '/openapi.json' })).json()
  const finalize = document.paths['/projects/slug/{slug}/deployments/{id}/finalize'].post
  assert.deepEqual(finalize.requestBody.content['application/json'].schema, {
    $ref: '#/components/schemas/Finalize',
  })
  assert.equal(document.components.schemas.Finalize.properties.promote.default, true)
  assert.deepEqual(document.components.schemas.Deployment.properties.diagnostics.items, {
    $ref: '#/components/schemas/Diagnostic',
  })
  assert.deepEqual(document.components.schemas.Deployment.properties.commitMessage.type, ['string', 'null'])
})
