/**
 * The specs a build reads, each opened once: a spec source (a site file, or a URL the CLI fetched)
 * loaded, its load problems reported once as warnings, and indexed by operation (`GET /users`,
 * `webhook name`) and, for AsyncAPI, by channel.
 * In: the site's files and spec sources. Out: a spec's index, or nothing when it is missing or unreadable.
 */
import type { Diagnostic } from '../diagnostics.js'
import type { SourceFiles } from '../files.js'
import { type ApiChannel, listChannels } from './channels.js'
import { type LoadedSpec, loadSpec } from './load.js'
import { type ApiOperation, listOperations, operationKey } from './operations.js'
import { isSpecUrl, resolveSpecName, specFile } from './sources.js'

export interface SpecIndex {
  file: string
  spec: LoadedSpec
  operations: Map<string, ApiOperation>
  /** AsyncAPI documents' channels (empty for OpenAPI). */
  channels: ApiChannel[]
}

/** A spec source's index; the same promise for every ask of one source. */
export type SpecLookup = (source: string) => Promise<SpecIndex | undefined>

/** Opens each spec of the site at most once per build, reporting its problems into `diagnostics`. */
export function specLookup(files: SourceFiles, diagnostics: Diagnostic[]): SpecLookup {
  const specs = new Map<string, Promise<SpecIndex | undefined>>()
  const reported = new Set<string>()
  return (source) => {
    let found = specs.get(source)
    if (!found) {
      found = openSpec(files, source, diagnostics, reported)
      specs.set(source, found)
    }
    return found
  }
}

async function openSpec(
  files: SourceFiles,
  source: string,
  diagnostics: Diagnostic[],
  reported: Set<string>,
): Promise<SpecIndex | undefined> {
  const file = resolveSpecName(specFile(source), files)
  if (!files.has(file)) {
    if (!reported.has(source)) {
      reported.add(source)
      diagnostics.push(
        isSpecUrl(source)
          ? {
              severity: 'warning',
              file: 'docs.json',
              rule: 'openapi-not-fetched',
              message: `OpenAPI document ${source} was not uploaded with the site; \`docsctl validate\`, \`push\` and \`dev\` fetch it, the server never does`,
            }
          : {
              severity: 'warning',
              file: 'docs.json',
              rule: 'openapi-missing',
              message: `Unexpected OpenAPI document "${source}", expected a file of the site`,
            },
      )
    }
    return undefined
  }
  const spec = await loadSpec(files, file)
  if (!reported.has(file)) {
    reported.add(file)
    diagnostics.push(
      ...spec.diagnostics.map((diagnostic) => ({ ...diagnostic, severity: 'warning' as const })),
    )
  }
  if (!spec.document) return undefined
  const operations = new Map<string, ApiOperation>()
  for (const operation of listOperations(spec.document)) {
    const key = operationKey(operation.webhook ? 'webhook' : operation.method, operation.path)
    if (!operations.has(key)) operations.set(key, operation)
  }
  const channels = typeof spec.document.asyncapi === 'string' ? listChannels(spec.document) : []
  return { file, spec, operations, channels }
}

export async function findOperation(
  sources: readonly string[],
  reference: { method: string; path: string },
  specFor: SpecLookup,
): Promise<{ index: SpecIndex; operation: ApiOperation } | undefined> {
  const wanted = operationKey(reference.method, reference.path)
  const loose = (key: string) => key.replace(/\/+$/, '').toLowerCase()
  for (const source of sources) {
    const index = await specFor(source)
    if (!index) continue
    const operation =
      index.operations.get(wanted) ?? [...index.operations].find(([key]) => loose(key) === loose(wanted))?.[1]
    if (operation) return { index, operation }
  }
  return undefined
}
