/**
 * Reader insights: the event a site's script sends to `<site>/_docs/events` (validated there with this
 * schema), and the report `GET /projects/:projectId/insights` answers with (the dashboard's Insights
 * tab and `docsctl insights` read the same).
 */

/**
 * No control characters in what an event carries (a comment's tabs and line breaks aside): PostgreSQL's
 * text refuses U+0000, and a batch holding one would be refused whole, every time it was tried.
 */
const controls = '\\u0000-\\u001f\\u007f'
const controlsButLines = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f'

/** A site path relative to the site root: `guide/setup/`, `` for the root page. */
const sitePath = {
  type: 'string',
  maxLength: 512,
  pattern: `^(?!/)[^\\s?#${controls}]*$`,
} as const

export const InsightEvent = {
  $id: 'InsightEvent',
  title: 'InsightEvent',
  description:
    "One reader event, sent by a site's own script with navigator.sendBeacon to `<site>/_docs/events` (at most 2 KB).",
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'path', 'screen'],
      properties: {
        type: { const: 'view' },
        path: sitePath,
        /** The referring site's host name, never its path or query. */
        referrer: { type: 'string', maxLength: 253, pattern: '^[a-z0-9.-]*(:[0-9]{1,5})?$' },
        screen: { enum: ['phone', 'tablet', 'desktop'] },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'query', 'results'],
      properties: {
        type: { const: 'search' },
        query: { type: 'string', minLength: 1, maxLength: 100, pattern: `^[^${controls}]*$` },
        results: { type: 'integer', minimum: 0, maximum: 10_000 },
        /** The result the reader opened, or null for none. */
        opened: { anyOf: [sitePath, { type: 'null' }] },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'path', 'helpful'],
      properties: {
        type: { const: 'feedback' },
        path: sitePath,
        helpful: { type: 'boolean' },
        comment: { type: 'string', maxLength: 1000, pattern: `^[^${controlsButLines}]*$` },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'path'],
      properties: { type: { enum: ['copy', 'not-found'] }, path: sitePath },
    },
  ],
} as const

const counted = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'total'],
  properties: { key: { type: 'string' }, total: { type: 'integer' } },
} as const

const countedList = { type: 'array', items: counted } as const

export const InsightsReport = {
  $id: 'InsightsReport',
  title: 'InsightsReport',
  description: "A project's reader insights over a range of UTC days, from its daily aggregates.",
  type: 'object',
  additionalProperties: false,
  required: [
    'enabled',
    'from',
    'to',
    'days',
    'pages',
    'referrers',
    'screens',
    'searches',
    'searchesWithoutResults',
    'feedback',
    'comments',
    'copies',
    'notFound',
  ],
  properties: {
    enabled: { type: 'boolean', description: 'Whether the project keeps reader events' },
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    days: {
      type: 'array',
      description: 'Every day of the range, with its page views and distinct visitors',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['day', 'views', 'visitors'],
        properties: {
          day: { type: 'string', format: 'date' },
          views: { type: 'integer' },
          visitors: { type: 'integer' },
        },
      },
    },
    pages: { ...countedList, description: 'Page views by page path' },
    referrers: { ...countedList, description: 'Page views by referring host' },
    screens: { ...countedList, description: 'Page views by screen class' },
    searches: { ...countedList, description: 'Searches by query (lowercased)' },
    searchesWithoutResults: {
      type: 'array',
      description: 'Queries that found nothing, with the pages whose titles come closest',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'total', 'closest'],
        properties: {
          key: { type: 'string' },
          total: { type: 'integer' },
          closest: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['path', 'title'],
              properties: { path: { type: 'string' }, title: { type: 'string' } },
            },
          },
        },
      },
    },
    feedback: {
      type: 'array',
      description: 'Helpful and not helpful answers by page',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'helpful', 'notHelpful'],
        properties: {
          path: { type: 'string' },
          helpful: { type: 'integer' },
          notHelpful: { type: 'integer' },
        },
      },
    },
    comments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['day', 'path', 'helpful', 'comment'],
        properties: {
          day: { type: 'string', format: 'date' },
          path: { type: 'string' },
          helpful: { type: 'boolean' },
          comment: { type: 'string' },
        },
      },
    },
    copies: { ...countedList, description: 'Code copies by page' },
    notFound: {
      type: 'array',
      description: 'Paths readers found missing, with the redirect to add when a page is close',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'total', 'redirect'],
        properties: {
          key: { type: 'string' },
          total: { type: 'integer' },
          redirect: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['source', 'destination'],
            properties: { source: { type: 'string' }, destination: { type: 'string' } },
          },
        },
      },
    },
  },
} as const

export const InsightsSettings = {
  $id: 'InsightsSettings',
  title: 'InsightsSettings',
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: { enabled: { type: 'boolean' } },
} as const

/** `?from=&to=`: UTC days, inclusive; the last 30 days when left out. */
export const insightsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    to: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    /** Rows of each table, 1–500. */
    limit: { type: 'string', pattern: '^([1-9]|[1-9][0-9]|[1-4][0-9][0-9]|500)$', default: '20' },
  },
} as const
