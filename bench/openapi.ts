/**
 * `npm run bench:openapi`: a generated OpenAPI 3.1 spec of 1,000 operations (250 paths × GET, POST,
 * PATCH, DELETE; shared component schemas by `$ref`, one circular) listed by a navigation tab's
 * `openapi`, built cold with one render worker per core, as `docsctl build` does. Prints the time to
 * read and dereference the spec, to generate the pages, the whole build, pages/s, and the ratio to the
 * issue's budget of 10 s on 2 cores, with the build's CPU time over every thread (render workers are
 * threads of this process) and the load average, since the machine is often shared. `--operations N` sets the size; `--in-thread` renders without workers (for profiling). It prints figures; it does not assert.
 */
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { buildSite } from '../compiler/build.js'
import { loadConfig } from '../compiler/config/index.js'
import { expandApiReference } from '../compiler/openapi/index.js'
import { loadSpec } from '../compiler/openapi/load.js'

const BUDGET_MS = 10_000

function generateSpec(operations: number): string {
  const paths: Record<string, unknown> = {}
  const methods = ['get', 'post', 'patch', 'delete'] as const
  for (let index = 0; index * methods.length < operations; index++) {
    const resource = `widgets${index}`
    const item: Record<string, unknown> = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    }
    methods.slice(0, Math.min(methods.length, operations - index * methods.length)).forEach((method) => {
      item[method] = {
        summary: `${method === 'get' ? 'Get' : method === 'post' ? 'Replace' : method === 'patch' ? 'Update' : 'Delete'} widget ${index}`,
        operationId: `${method}Widget${index}`,
        tags: [`Group ${index % 20}`],
        description: `Works on widget **${index}**. Limits apply: at most {count} per minute.`,
        parameters: [
          {
            name: 'expand',
            in: 'query',
            schema: { type: 'array', items: { type: 'string', enum: ['owner', 'parts'] } },
          },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        ...(method === 'post' || method === 'patch'
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetInput' } } },
              },
            }
          : {}),
        responses: {
          '200': {
            description: 'The widget.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
          },
          '404': {
            description: 'No such widget.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      }
    })
    paths[`/${resource}/{id}`] = item
  }
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Widgets', version: '1.0.0' },
    servers: [{ url: 'https://api.widgets.example/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: { message: { type: 'string' }, code: { type: 'integer' } },
        },
        WidgetInput: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 80 },
            colour: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red' },
            size: {
              oneOf: [
                { title: 'Small', type: 'integer', maximum: 10 },
                { title: 'Named', type: 'string' },
              ],
            },
            parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
          },
        },
        Widget: {
          allOf: [
            { $ref: '#/components/schemas/WidgetInput' },
            {
              type: 'object',
              properties: {
                id: { type: 'string', format: 'uuid', readOnly: true },
                createdAt: { type: 'string', format: 'date-time' },
              },
            },
          ],
        },
        Part: {
          type: 'object',
          properties: {
            sku: { type: 'string' },
            quantity: { type: 'integer', minimum: 1 },
            children: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
          },
        },
      },
    },
  }
  return JSON.stringify(spec)
}

const flag = process.argv.indexOf('--operations')
const operations = flag === -1 ? 1000 : Number(process.argv[flag + 1])
const encoder = new TextEncoder()
const specText = generateSpec(operations)
const files = new Map<string, Uint8Array>([
  ['openapi.json', encoder.encode(specText)],
  [
    'docs.json',
    encoder.encode(
      JSON.stringify({ name: 'Widgets', navigation: { tabs: [{ tab: 'API', openapi: 'openapi.json' }] } }),
    ),
  ],
  ['index.mdx', encoder.encode('---\ntitle: Widgets\n---\n\nThe Widgets API.\n')],
])

const workers = process.argv.includes('--in-thread') ? 0 : availableParallelism()
console.log(
  `OpenAPI bench: ${operations} operations, spec ${(specText.length / 1024).toFixed(0)} KB, ${workers} render workers`,
)

let started = performance.now()
const spec = await loadSpec(new Map(files), 'openapi.json')
const loadMs = performance.now() - started
console.log(`  read + dereference:   ${loadMs.toFixed(0)} ms (${spec.diagnostics.length} diagnostics)`)

const { config, navigation } = loadConfig(files, { mode: 'lenient' })
started = performance.now()
const reference = await expandApiReference(new Map(files), config!, navigation!, 'lenient')
const expandMs = performance.now() - started
console.log(`  generate page sources: ${expandMs.toFixed(0)} ms (${reference.generated.length} pages)`)

started = performance.now()
const cpuBefore = process.cpuUsage()
const result = await buildSite(files, { mode: 'lenient', workers })
const buildMs = performance.now() - started
const cpu = process.cpuUsage(cpuBefore)
const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
console.log(
  `  whole build (cold):    ${buildMs.toFixed(0)} ms, ${result.stats.pages} pages, ${result.files.size} files, ${errors} errors`,
)
console.log(
  `  build CPU time:        ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s over all threads (load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')})`,
)
console.log(`  pages/s:               ${((result.stats.pages / buildMs) * 1000).toFixed(0)}`)
console.log(`  peak RSS:              ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`)
console.log(
  `  vs the 10 s budget:    ${(buildMs / BUDGET_MS).toFixed(2)}× (${buildMs < BUDGET_MS ? 'within' : 'over'})`,
)
