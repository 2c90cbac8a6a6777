/** A project: one docs site, its slug and its live deployment. */

import { dateTime, ref } from './common.js'

export const Project = {
  $id: 'Project',
  title: 'Project',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'slug',
    'name',
    'description',
    'deploymentName',
    'url',
    'liveDeploymentId',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string', pattern: '^prj_[a-z2-7]+$' },
    slug: { type: 'string' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    deploymentName: { type: ['string', 'null'] },
    url: { type: 'string' },
    liveDeploymentId: { type: ['string', 'null'] },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const

export const ProjectCreate = {
  $id: 'ProjectCreate',
  title: 'ProjectCreate',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'slug'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    slug: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: ['string', 'null'], maxLength: 2000 },
  },
} as const

export const ProjectUpdate = {
  $id: 'ProjectUpdate',
  title: 'ProjectUpdate',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: ['string', 'null'], maxLength: 2000 },
    deploymentName: { type: ['string', 'null'], maxLength: 200 },
    slug: { description: 'Not updatable: present only to answer 400 with a clear message.' },
  },
} as const

export const ProjectList = {
  $id: 'ProjectList',
  title: 'ProjectList',
  type: 'object',
  additionalProperties: false,
  required: ['projects'],
  properties: { projects: { type: 'array', items: ref(Project) } },
} as const
