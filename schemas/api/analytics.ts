/** A project's analytics settings: PostHog's public project key and ingestion host. */

export const defaultPosthogHost = 'https://us.i.posthog.com'

export const AnalyticsSettings = {
  $id: 'AnalyticsSettings',
  title: 'AnalyticsSettings',
  type: 'object',
  additionalProperties: false,
  required: ['posthog'],
  properties: {
    posthog: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['key', 'host'],
      properties: {
        key: { type: 'string', description: 'Public project API key (phc_…)' },
        host: { type: 'string', description: 'Ingestion host, an https:// URL' },
      },
    },
  },
} as const

export const AnalyticsUpdate = {
  $id: 'AnalyticsUpdate',
  title: 'AnalyticsUpdate',
  type: 'object',
  additionalProperties: false,
  required: ['provider', 'key'],
  properties: {
    provider: { type: 'string', enum: ['posthog'] },
    key: { type: 'string', maxLength: 200 },
    host: { type: 'string', maxLength: 500, default: defaultPosthogHost },
  },
} as const
