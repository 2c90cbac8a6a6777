/**
 * `GET /schemas/:name`: the JSON Schemas authors' editors load from docs.json's `$schema` and page
 * front matter, served from schemas/ so the server and the validator never disagree.
 */
import { readFile } from 'node:fs/promises'
import type { FastifyPluginAsync } from 'fastify'
import { fromPackageRoot } from '../../compiler/assets.js'
import { ApiError } from '../errors.js'

const published = ['docs.schema.json', 'frontmatter.schema.json'] as const

export const schemaRoutes: FastifyPluginAsync = async (app) => {
  const bodies = new Map<string, Buffer>()
  for (const name of published) bodies.set(name, await readFile(fromPackageRoot('schemas', name)))

  app.get<{ Params: { name: string } }>(
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
      const body = bodies.get(request.params.name)
      if (!body) throw new ApiError(404, `No schema named ${request.params.name}`)
      return reply
        .header('content-type', 'application/schema+json; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('access-control-allow-origin', '*')
        .send(body)
    },
  )
}
