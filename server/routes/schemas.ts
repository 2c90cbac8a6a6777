/**
 * `GET /schemas/:name`: the JSON Schemas authors' editors load from docs.json's `$schema` and page
 * front matter, served from schemas/ so the server and the validator never disagree.
 */
import { readFile } from 'node:fs/promises'
import { fromPackageRoot } from '../../compiler/assets.js'
import { ApiError } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

const published = ['docs.schema.json', 'frontmatter.schema.json'] as const

export const schemaRoutes: ApiRoutes = async (app) => {
  const documents = new Map<string, Record<string, unknown>>()
  for (const name of published) {
    documents.set(name, JSON.parse(await readFile(fromPackageRoot('schemas', name), 'utf8')))
  }

  app.get(
    '/schemas/:name',
    {
      schema: {
        tags: ['schemas'],
        summary: 'A JSON Schema for docs.json or page front matter',
        params: {
          type: 'object',
          properties: { name: { type: 'string', enum: [...published] } },
          required: ['name'],
        },
        response: { 200: { type: 'object', additionalProperties: true } },
      },
    },
    async (request, reply) => {
      const document = documents.get(request.params.name)
      if (!document) throw new ApiError(404, `No schema named ${request.params.name}`)
      return reply
        .header('content-type', 'application/schema+json; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('access-control-allow-origin', '*')
        .send(document)
    },
  )
}
