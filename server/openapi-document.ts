/**
 * The server's OpenAPI document as `GET /openapi.json` answers it, made without listening: an app on a
 * throwaway data folder, asked once, then closed. `npm run docs:generate` writes it to
 * docs/reference/openapi.json, from which the manual's REST API pages are built; the document names
 * the default API host (`localhost:8080`), so the file does not depend on who generated it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from './app.js'
import { defaultConfig } from './config.js'

/** The generated document's path from the package root. */
export const openapiDocumentPath = 'docs/reference/openapi.json'

export async function openapiDocument(): Promise<unknown> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-openapi-'))
  try {
    const app = await buildApp(
      defaultConfig({ dataDir, buildWorkers: 1, apiHost: 'localhost:8080', baseDomain: 'localhost:8080' }),
    )
    try {
      return (await app.inject({ url: '/openapi.json' })).json()
    } finally {
      await app.close()
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 })
  }
}

/** The file's text: the document as indented JSON, ending with a newline. */
export const openapiDocumentText = async (): Promise<string> =>
  `${JSON.stringify(await openapiDocument(), null, 2)}\n`
