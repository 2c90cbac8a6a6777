/** `GET /me`: who a user token belongs to, for `docsctl whoami`. Deploy keys have no user: 403. */
import { ErrorBody, Me, ref } from '../../schemas/api/index.js'
import { requireUser } from '../auth/actor.js'
import { unauthorized } from '../errors.js'
import type { ApiRoutes } from '../schemas.js'

export const meRoutes: ApiRoutes = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        response: { 200: ref(Me), 401: ref(ErrorBody), 403: ref(ErrorBody) },
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
