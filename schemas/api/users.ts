/** The signed-in user and the server's health. */
import { dateTime } from './common.js'

export const Me = {
  $id: 'Me',
  title: 'Signed-in user',
  description: 'GET /me: who the user token belongs to (for docsctl whoami).',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'name'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: ['string', 'null'] },
  },
} as const

export const Health = {
  $id: 'Health',
  title: 'Health',
  type: 'object',
  additionalProperties: false,
  required: ['ok', 'timestamp'],
  properties: {
    ok: { type: 'boolean' },
    timestamp: dateTime,
    error: { type: 'string' },
  },
} as const
