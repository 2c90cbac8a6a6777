/** A deployment's uploaded source files, each compared with the project's previous deployment. */

export const DeploymentFileList = {
  $id: 'DeploymentFileList',
  title: 'DeploymentFileList',
  type: 'object',
  additionalProperties: false,
  required: ['previousDeploymentId', 'changedCount', 'files', 'removed'],
  properties: {
    previousDeploymentId: {
      type: ['string', 'null'],
      description:
        'The deployment created just before this one in the project, which the changes are against',
    },
    changedCount: {
      type: 'integer',
      description: 'Files added, changed or removed since the previous deployment',
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'sha256', 'size', 'change'],
        properties: {
          path: { type: 'string' },
          sha256: { type: 'string' },
          size: { type: 'integer' },
          change: { type: 'string', enum: ['added', 'changed', 'unchanged'] },
        },
      },
    },
    removed: {
      type: 'array',
      items: { type: 'string' },
      description: 'Paths of the previous deployment not in this one',
    },
  },
} as const
