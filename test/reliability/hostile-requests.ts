/**
 * Bad API input, generated (fast-check), against a real `docs-server`: deployment manifests (entries of
 * every shape, paths, hashes, sizes), multipart batches (boundaries, part headers, truncated and mangled
 * bodies), finalize and project bodies, and JSON that is not JSON. Properties: the server never answers
 * 5xx to bad input, every refusal is JSON `{error}` (with `issues` when it names fields), and a body
 * never echoes a stack trace.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { http } from '../e2e/replicas.js'
import { createProject } from './push.js'
import { ServerProcess } from './server-process.js'
import { Cases, type Suite, type SuiteContext } from './suite.js'

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

const prototypeNames = Object.getOwnPropertyNames(Object.prototype)
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '../x', '/abs', 'a\\b', 'a\u0000b', 'index.mdx', 'docs.json', ...prototypeNames),
  fc.string({ unit: 'binary', maxLength: 20 }),
)
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 53, 2 ** 64, Number.MAX_VALUE, 1e308, -0),
)
const value = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }))

/** A manifest entry, well-formed or not in any of its fields. */
const entry = fc.oneof(
  fc.record(
    {
      path: fc.oneof(text, value),
      sha256: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.constant(sha256('x')), value),
      size: fc.oneof(fc.nat(10_000), number, value),
    },
    { requiredKeys: [] },
  ),
  value,
  fc.dictionary(fc.oneof(text, fc.constantFrom(...prototypeNames)), value, { maxKeys: 4 }),
)

const manifestBody = fc.oneof(
  fc.record(
    {
      branch: fc.oneof(text, value),
      commitMessage: fc.oneof(text, value),
      environment: fc.oneof(text, value),
      files: fc.oneof(fc.array(entry, { maxLength: 8 }), value),
    },
    { requiredKeys: [] },
  ),
  value,
)

/** A multipart body: parts with odd names and headers, then mangled (cut, bytes flipped, boundary lost). */
const multipart = fc
  .record({
    boundary: fc.oneof(fc.constant('b0undary'), fc.string({ minLength: 1, maxLength: 80 }), fc.constant('')),
    parts: fc.array(
      fc.record({
        name: text,
        filename: fc.oneof(text, fc.constant(undefined)),
        type: fc.oneof(fc.constant('application/octet-stream'), text),
        body: fc.uint8Array({ maxLength: 200 }),
      }),
      { maxLength: 4 },
    ),
    cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    flip: fc.option(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 }))),
    contentType: fc.oneof(
      fc.constant('multipart/form-data; boundary=b0undary'),
      fc.constant('multipart/form-data'),
      fc.constant('application/json'),
      text.map((value) => `multipart/form-data; boundary=${value}`),
    ),
  })
  .map(({ boundary, parts, cut, flip, contentType }) => {
    const chunks: Buffer[] = []
    for (const part of parts) {
      const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
        Buffer.from(part.body),
        Buffer.from('\r\n'),
      )
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`))
    let payload = Buffer.concat(chunks)
    if (cut !== null) payload = payload.subarray(0, Math.floor(cut * payload.length))
    if (flip !== null && payload.length > 0) payload[Math.floor(flip[0] * (payload.length - 1))] = flip[1]
    const header = contentType.includes('boundary=b0undary')
      ? `multipart/form-data; boundary=${boundary}`
      : contentType
    // Only what an HTTP client can send in a header: no controls, nothing past Latin-1.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: those are the characters removed.
    return { payload, contentType: header.replace(/[\u0000-\u001f\u007f-\uffff]/g, '?') }
  })

export const hostileRequests: Suite = {
  name: 'hostile requests (API)',
  async run({ counts, say }: SuiteContext) {
    const cases = new Cases()
    const seed = Number(process.env.DOCS_RELIABILITY_SEED ?? Date.now() % 2 ** 31)
    const server = await ServerProcess.create('requests', [
      ...['--project-deployments-per-day', '1000000', '--user-deployments-per-day', '10000000'],
      ...['--user-files-per-day', '100000000'],
    ])
    const statuses = new Map<number, number>()
    try {
      await server.start()
      const token = await server.token('requests@example.com')
      await createProject(server, token, 'requests')
      const base = '/projects/slug/requests/deployments'
      const docs = '{"name":"R","navigation":{"pages":["index"]}}'
      /** A deployment still uploading, for batches and finalize. */
      const uploading = async () => {
        const created = await server.api('POST', base, token, {
          branch: 'main',
          files: [{ path: 'docs.json', sha256: sha256(docs), size: docs.length }],
        })
        return created.json<{ deployment: { id: string } }>().deployment.id
      }
      let openId = await uploading()
      const judge = (what: string, status: number, body: string): string | undefined => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        if (status >= 500) return `${what} answered ${status}: ${body.slice(0, 300)}`
        if (/\n\s+at .+:\d+:\d+/.test(body))
          return `${what} answered with a stack trace: ${body.slice(0, 300)}`
        if (status >= 400) {
          let parsed: unknown
          try {
            parsed = JSON.parse(body)
          } catch {
            return `${what} answered ${status} with a body that is not JSON: ${body.slice(0, 200)}`
          }
          const error = (parsed as { error?: unknown } | null)?.error
          if (typeof error !== 'string' || error === '')
            return `${what} answered ${status} without {error}: ${body.slice(0, 200)}`
        }
        return undefined
      }
      const properties: { name: string; property: fc.IAsyncProperty<[unknown]> }[] = [
        {
          name: 'manifests',
          property: fc.asyncProperty(manifestBody, async (body) => {
            const answer = await server.api('POST', base, token, body)
            const problem = judge('POST deployments', answer.status, answer.text())
            if (problem) throw new Error(problem)
          }) as fc.IAsyncProperty<[unknown]>,
        },
        {
          name: 'multipart batches',
          property: fc.asyncProperty(multipart, async ({ payload, contentType }) => {
            const answer = await http(server.port, 'POST', `${base}/${openId}/files/batch`, {
              host: server.baseDomain,
              headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
              body: payload,
            })
            const problem = judge('POST files/batch', answer.status, answer.text())
            // A batch that stored docs.json leaves nothing to upload: the next ones need a fresh deployment.
            if (answer.status === 200) openId = await uploading()
            if (problem) throw new Error(problem)
          }) as fc.IAsyncProperty<[unknown]>,
        },
        {
          name: 'finalize and project bodies',
          property: fc.asyncProperty(
            fc.tuple(
              fc.constantFrom('finalize', 'project', 'promote', 'raw'),
              value,
              fc.string({ maxLength: 60 }),
            ),
            async ([route, body, raw]) => {
              const answer =
                route === 'finalize'
                  ? await server.api('POST', `${base}/${openId}/finalize`, token, body)
                  : route === 'project'
                    ? await server.api('POST', '/projects/', token, body)
                    : route === 'promote'
                      ? await server.api('POST', `${base}/${encodeURIComponent(raw)}/promote`, token, body)
                      : await http(server.port, 'POST', base, {
                          host: server.baseDomain,
                          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                          body: Buffer.from(raw),
                        })
              const problem = judge(`POST ${route}`, answer.status, answer.text())
              if (answer.status === 200 && route === 'finalize') openId = await uploading()
              if (problem) throw new Error(problem)
            },
          ) as fc.IAsyncProperty<[unknown]>,
        },
      ]
      const figures: Record<string, string | number> = { seed }
      for (const { name, property } of properties) {
        const details = await fc.check(property, { numRuns: counts.propertyRuns, seed })
        cases.count += details.numRuns
        if (details.failed)
          cases.failures.push(
            `${name}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n  input (shrunk): ${fc.stringify(details.counterexample).slice(0, 1500)}\n  seed ${details.seed}, path ${details.counterexamplePath}`,
          )
        figures[name] = `${details.numRuns}${details.failed ? ' (stopped at a failure)' : ''}`
        say(`${name}: ${details.numRuns} cases${details.failed ? ', FAILED' : ''}`)
      }
      figures.statuses = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')
      return cases.report(figures)
    } catch (error) {
      cases.fail(`set-up: ${(error as Error).message}`)
      return cases.report({})
    } finally {
      await server.dispose()
    }
  },
}
