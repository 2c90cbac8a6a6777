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

/** `GET /ready`: whether this replica can take writes and builds; a load balancer routes by it. */
export const Readiness = {
  $id: 'Readiness',
  title: 'Readiness',
  type: 'object',
  additionalProperties: false,
  required: ['ok', 'timestamp', 'database', 'blobStore', 'changes'],
  properties: {
    ok: { type: 'boolean' },
    timestamp: dateTime,
    database: { enum: ['ok', 'unreachable'] },
    blobStore: { enum: ['ok', 'unreachable'] },
    /** How promotions reach this replica: notifications, or polling while that connection is down. */
    changes: { enum: ['listening', 'polling'] },
  },
} as const
