/** Deploy keys: project-scoped `dk_…` credentials for CI that may only deploy. */

import { dateTime, pathId, ref } from './common.js'

export const DeployKey = {
  $id: 'DeployKey',
  title: 'Deploy key',
  description:
    'A project-scoped credential that may only deploy. Its value is shown once, at creation; afterwards only its prefix.',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'The first characters of the key, to recognise it.' },
    createdAt: dateTime,
    lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const

export const DeployKeyCreate = {
  $id: 'DeployKeyCreate',
  title: 'Create a deploy key',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'What the key is for, e.g. "GitHub Actions".',
    },
  },
} as const

export const DeployKeyCreated = {
  $id: 'DeployKeyCreated',
  title: 'A new deploy key',
  description: "The key's value (dk_…) appears only in this response; store it as a CI secret.",
  type: 'object',
  additionalProperties: false,
  required: ['deployKey', 'token'],
  properties: {
    deployKey: ref(DeployKey),
    token: { type: 'string' },
  },
} as const

export const DeployKeyList = {
  $id: 'DeployKeyList',
  title: 'Deploy keys of a project',
  type: 'object',
  additionalProperties: false,
  required: ['deployKeys'],
  properties: {
    deployKeys: { type: 'array', items: ref(DeployKey) },
  },
} as const

export const DeployKeyParams = {
  type: 'object',
  required: ['projectId', 'keyId'],
  properties: { projectId: pathId, keyId: pathId },
} as const
