/** A deployment: a file manifest uploaded by content hash, built once, promoted by one row update. */

import { dateTime, ref } from './common.js'

export const Diagnostic = {
  $id: 'Diagnostic',
  title: 'Diagnostic',
  description: 'One problem the compiler found in the site, with its place.',
  type: 'object',
  additionalProperties: false,
  required: ['severity', 'file', 'rule', 'message'],
  properties: {
    severity: { type: 'string', enum: ['error', 'warning'] },
    file: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    path: { type: 'string' },
    rule: { type: 'string' },
    message: { type: 'string' },
  },
} as const

/** Diagnostics a deployment record carries; the rest are read page by page. */
export const DIAGNOSTICS_SHOWN = 50

export const Deployment = {
  $id: 'Deployment',
  title: 'Deployment',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'projectId',
    'status',
    'live',
    'branch',
    'commitMessage',
    'environment',
    'url',
    'previewUrl',
    'fileCount',
    'totalBytes',
    'diagnosticCount',
    'errorCount',
    'timings',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string', pattern: '^dpl_[a-z2-7]+$' },
    projectId: { type: 'string' },
    status: { type: 'string', enum: ['uploading', 'building', 'ready', 'failed'] },
    live: { type: 'boolean' },
    branch: { type: 'string' },
    commitMessage: { type: ['string', 'null'] },
    environment: { type: ['string', 'null'] },
    url: { type: ['string', 'null'] },
    previewUrl: { type: ['string', 'null'] },
    fileCount: { type: 'integer' },
    totalBytes: { type: 'integer' },
    diagnostics: {
      type: 'array',
      items: ref(Diagnostic),
      description: `The first ${DIAGNOSTICS_SHOWN} diagnostics, errors first; all of them page by page at GET …/deployments/{id}/diagnostics. Absent in lists of deployments.`,
    },
    diagnosticCount: {
      type: 'integer',
      description:
        'Diagnostics the deployment holds (at most 256 KB of them, the last counting any left out)',
    },
    errorCount: { type: 'integer', description: 'How many of them are errors' },
    timings: {
      type: 'object',
      additionalProperties: false,
      properties: { uploadMs: { type: 'number' }, buildMs: { type: 'number' } },
    },
    stats: {
      type: 'object',
      additionalProperties: false,
      required: ['pagesRendered', 'pagesReused'],
      properties: { pagesRendered: { type: 'integer' }, pagesReused: { type: 'integer' } },
    },
    commitSha: { type: 'string', description: 'The commit a Git-connected deployment was built from' },
    commitAuthor: { type: ['string', 'null'], description: "The commit's author, `Name <email>`" },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const

export const DiagnosticList = {
  $id: 'DiagnosticList',
  title: 'DiagnosticList',
  description: "A page of a deployment's diagnostics, errors first.",
  type: 'object',
  additionalProperties: false,
  required: ['diagnostics', 'total', 'nextCursor'],
  properties: {
    diagnostics: { type: 'array', items: ref(Diagnostic) },
    total: { type: 'integer', description: 'Diagnostics the deployment holds' },
    nextCursor: {
      type: ['string', 'null'],
      description: 'Pass as `cursor` for the next page; null at the end',
    },
  },
} as const

export const DiagnosticListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^([1-9]|[1-9][0-9]|[1-4][0-9][0-9]|500)$', default: '100' },
    cursor: { type: 'string', pattern: '^[0-9]{1,9}$' },
  },
} as const

export const ManifestEntry = {
  $id: 'ManifestEntry',
  title: 'ManifestEntry',
  description: 'One file of a deployment: its path in the docs folder, its sha256 and its size.',
  type: 'object',
  additionalProperties: false,
  required: ['path', 'sha256', 'size'],
  properties: {
    path: { type: 'string', minLength: 1, maxLength: 1024 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    size: { type: 'integer', minimum: 0 },
  },
} as const

export const DeploymentCreate = {
  $id: 'DeploymentCreate',
  title: 'DeploymentCreate',
  type: 'object',
  additionalProperties: false,
  properties: {
    branch: { type: 'string', minLength: 1, maxLength: 255, default: 'main' },
    commitMessage: { type: ['string', 'null'], maxLength: 10000, default: null },
    environment: { type: ['string', 'null'], maxLength: 255, default: null },
    files: { type: 'array', items: ref(ManifestEntry), default: [] },
  },
} as const

export const DeploymentCreated = {
  $id: 'DeploymentCreated',
  title: 'DeploymentCreated',
  type: 'object',
  additionalProperties: false,
  required: ['deployment', 'missing'],
  properties: {
    deployment: ref(Deployment),
    missing: { type: 'array', items: { type: 'string' }, description: 'The sha256 hashes to upload.' },
  },
} as const

export const DeploymentList = {
  $id: 'DeploymentList',
  title: 'DeploymentList',
  type: 'object',
  additionalProperties: false,
  required: ['deployments', 'nextCursor'],
  properties: {
    deployments: { type: 'array', items: ref(Deployment) },
    nextCursor: { type: ['string', 'null'] },
  },
} as const

export const DeploymentListQuery = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^([1-9]|[1-9][0-9]|100)$', default: '20' },
    cursor: { type: 'string', maxLength: 500 },
  },
} as const

export const FilesBatchResult = {
  $id: 'FilesBatchResult',
  title: 'FilesBatchResult',
  type: 'object',
  additionalProperties: false,
  required: ['received', 'missing'],
  properties: {
    received: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'sha256'],
        properties: { path: { type: 'string' }, sha256: { type: 'string' } },
      },
    },
    missing: { type: 'array', items: { type: 'string' } },
  },
} as const

export const ChunkParams = {
  type: 'object',
  required: ['slug', 'id', 'sha256'],
  properties: {
    slug: { type: 'string', maxLength: 100 },
    id: { type: 'string', maxLength: 100 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
} as const

export const ChunkQuery = {
  type: 'object',
  required: ['offset'],
  properties: { offset: { type: 'string', pattern: '^[0-9]{1,15}$' } },
} as const

export const ChunkResult = {
  $id: 'ChunkResult',
  title: 'ChunkResult',
  type: 'object',
  additionalProperties: false,
  required: ['sha256', 'received', 'complete'],
  properties: {
    sha256: { type: 'string' },
    received: { type: 'integer' },
    complete: { type: 'boolean' },
  },
} as const

export const Finalize = {
  $id: 'Finalize',
  title: 'Finalize',
  description: 'Optional: an empty body means promote with the default wait.',
  type: 'object',
  additionalProperties: false,
  properties: {
    promote: { type: 'boolean', default: true },
    waitSeconds: { type: 'number', minimum: 0, maximum: 60, default: 20 },
  },
} as const

export const FailedBuild = {
  $id: 'FailedBuild',
  title: 'FailedBuild',
  type: 'object',
  additionalProperties: false,
  required: ['error', 'deployment'],
  properties: {
    error: { type: 'string' },
    deployment: ref(Deployment),
  },
} as const
