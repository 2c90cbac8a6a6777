/**
 * A preview's change report: what its rendered site changes against the live one. Pages are compared
 * on their rendered content, links and anchors on the rendered HTML, warnings on the builds'
 * diagnostics, navigation on the listed pages in order; screenshots when the server has Chromium.
 */

const PageRef = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'title'],
  properties: {
    /** `guide/setup`; `index` for the home page. */
    slug: { type: 'string' },
    title: { type: 'string' },
  },
} as const

const LinkProblem = {
  type: 'object',
  additionalProperties: false,
  required: ['page', 'href', 'target', 'problem'],
  properties: {
    page: { type: 'string', description: 'Slug of the page the link is on' },
    href: { type: 'string', description: 'The link as the page has it' },
    target: { type: 'string', description: 'The site path it points to (`/guide/setup#install`)' },
    problem: { type: 'string', enum: ['missing-page', 'missing-anchor'] },
  },
} as const

const Redirect = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'destination'],
  properties: { source: { type: 'string' }, destination: { type: 'string' } },
} as const

const ScreenshotImage = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['sha256', 'url'],
  properties: { sha256: { type: 'string' }, url: { type: 'string' } },
} as const

export const ChangeReport = {
  $id: 'ChangeReport',
  title: 'ChangeReport',
  description: "A preview deployment's changes against the deployment that was live when it was compared.",
  type: 'object',
  additionalProperties: false,
  required: [
    'deploymentId',
    'baseDeploymentId',
    'status',
    'createdAt',
    'summary',
    'url',
    'previewUrl',
    'pages',
    'links',
    'warnings',
    'missingRedirects',
    'navigation',
    'screenshots',
  ],
  properties: {
    deploymentId: { type: 'string' },
    baseDeploymentId: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['ready', 'failed'] },
    /** Why a failed report could not be made. */
    error: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    /** The report in Markdown, as forges show it. */
    summary: { type: 'string' },
    /** This report on the API host. */
    url: { type: 'string' },
    previewUrl: { type: ['string', 'null'] },
    pages: {
      type: 'object',
      additionalProperties: false,
      required: ['added', 'removed', 'changed', 'unchanged'],
      properties: {
        added: { type: 'array', items: PageRef },
        removed: { type: 'array', items: PageRef },
        changed: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['slug', 'title', 'diff'],
            properties: {
              ...PageRef.properties,
              /** A unified diff of the page's Markdown export, live → preview. */
              diff: { type: 'string' },
            },
          },
        },
        unchanged: { type: 'integer' },
      },
    },
    links: {
      type: 'object',
      additionalProperties: false,
      required: ['introduced', 'fixed'],
      properties: {
        introduced: { type: 'array', items: LinkProblem },
        fixed: { type: 'array', items: LinkProblem },
      },
    },
    warnings: {
      type: 'object',
      additionalProperties: false,
      required: ['introduced'],
      properties: { introduced: { type: 'array', items: { $ref: 'Diagnostic#' } } },
    },
    missingRedirects: {
      type: 'array',
      description: 'Pages removed or renamed with no redirect, each with the `redirects` entry to add',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'title', 'renamedTo', 'redirect'],
        properties: {
          ...PageRef.properties,
          renamedTo: { type: ['string', 'null'] },
          redirect: Redirect,
        },
      },
    },
    navigation: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['change', 'slug', 'title', 'before', 'after'],
        properties: {
          change: { type: 'string', enum: ['added', 'removed', 'moved', 'retitled'] },
          slug: { type: 'string' },
          title: { type: 'string' },
          /** Where the page was listed: sections and groups, then its title. Null when not listed. */
          before: { type: ['string', 'null'] },
          after: { type: ['string', 'null'] },
        },
      },
    },
    screenshots: {
      type: 'object',
      additionalProperties: false,
      required: ['taken', 'reason', 'pages'],
      properties: {
        taken: { type: 'boolean' },
        /** Why there are no images (no Chromium on the server, nothing changed, …). */
        reason: { type: ['string', 'null'] },
        pages: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['slug', 'viewport', 'width', 'live', 'preview', 'difference', 'differentPixels'],
            properties: {
              slug: { type: 'string' },
              viewport: { type: 'string', enum: ['desktop', 'phone'] },
              width: { type: 'integer' },
              live: ScreenshotImage,
              preview: ScreenshotImage,
              difference: ScreenshotImage,
              differentPixels: { type: 'integer' },
            },
          },
        },
      },
    },
  },
} as const
