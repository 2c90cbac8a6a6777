/** `GET /me`: who a user token belongs to, for `docsctl whoami`. Deploy keys have no user: 403. */
import type { FastifyPluginAsync } from 'fastify'
import { requireUser } from '../auth/actor.js'
import { unauthorized } from '../errors.js'

export const meRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        response: { 200: { $ref: 'Me#' }, 401: { $ref: 'Error#' }, 403: { $ref: 'Error#' } },
      },
    },
    async (request) => {
      const userId = requireUser(request)
      const user = await app.repos.users.findById(userId)
      // The token outlived its user (account deleted): the credential is worthless, not the route.
      if (!user) throw unauthorized('This token belongs to an account that no longer exists; sign in again')
      return { id: user.id, email: user.email, name: user.name }
    },
  )
}
