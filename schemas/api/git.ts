/** A project's Git connection (repository, branches, docs directory) and the webhook deliveries it got. */
import { dateTime } from './common.js'

const provider = {
  type: 'string',
  enum: ['github', 'gitlab', 'gitea'],
  description: '`gitea` also covers Forgejo',
} as const

export const GitConnectionUpdate = {
  $id: 'GitConnectionUpdate',
  title: 'GitConnectionUpdate',
  type: 'object',
  additionalProperties: false,
  required: ['provider', 'repositoryUrl'],
  properties: {
    provider,
    repositoryUrl: { type: 'string', maxLength: 500, description: 'The http(s) clone URL, no credentials' },
    productionBranch: { type: 'string', maxLength: 255, default: 'main' },
    docsDirectory: {
      type: ['string', 'null'],
      maxLength: 500,
      default: null,
      description: 'Folder of docs.json; null: the first of `.`, `docs`, `apps/docs` holding one',
    },
    previewBranches: {
      type: 'array',
      maxItems: 20,
      items: { type: 'string', maxLength: 255 },
      default: [],
      description: 'Branch patterns that get preview deployments (`*` within a segment, `**` across)',
    },
    buildForkRequests: {
      type: 'boolean',
      default: false,
      description:
        'Build previews of pull/merge requests from forks (never with a secret of the project); off by default',
    },
  },
} as const

export const GitDelivery = {
  $id: 'GitDelivery',
  title: 'GitDelivery',
  description: 'One push a webhook delivered, and what became of it.',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'event',
    'branch',
    'commitSha',
    'commitMessage',
    'commitAuthor',
    'status',
    'deploymentId',
    'detail',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string' },
    event: { type: 'string' },
    branch: { type: 'string' },
    commitSha: { type: 'string' },
    commitMessage: { type: ['string', 'null'] },
    commitAuthor: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['queued', 'running', 'deployed', 'failed', 'skipped', 'superseded'] },
    deploymentId: { type: ['string', 'null'] },
    detail: { type: ['string', 'null'] },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const

export const GitConnection = {
  $id: 'GitConnection',
  title: 'GitConnection',
  type: 'object',
  additionalProperties: false,
  required: [
    'provider',
    'repositoryUrl',
    'productionBranch',
    'docsDirectory',
    'previewBranches',
    'buildForkRequests',
    'webhook',
    'githubInstallationId',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    provider,
    repositoryUrl: { type: 'string' },
    productionBranch: { type: 'string' },
    docsDirectory: { type: ['string', 'null'] },
    previewBranches: { type: 'array', items: { type: 'string' } },
    buildForkRequests: { type: 'boolean' },
    webhook: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'secret', 'events'],
      description: "Where the repository's host sends pushes; GitHub uses the App's own URL and secret",
      properties: {
        url: { type: 'string' },
        secret: { type: ['string', 'null'], description: 'The secret token (GitLab) or HMAC key (Gitea)' },
        events: { type: 'array', items: { type: 'string' } },
      },
    },
    githubInstallationId: { type: ['string', 'null'] },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const

export const GitSettings = {
  $id: 'GitSettings',
  title: 'GitSettings',
  type: 'object',
  additionalProperties: false,
  required: ['connection', 'deliveries'],
  properties: {
    connection: { anyOf: [{ type: 'null' }, { $ref: 'GitConnection#' }] },
    deliveries: { type: 'array', items: { $ref: 'GitDelivery#' } },
  },
} as const

export const WebhookAccepted = {
  $id: 'WebhookAccepted',
  title: 'WebhookAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['queued', 'message'],
  properties: {
    queued: { type: 'integer', description: 'Deployments queued by this delivery' },
    message: { type: 'string' },
  },
} as const
