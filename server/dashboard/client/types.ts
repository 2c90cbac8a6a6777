/** The shapes of the REST API the dashboard reads (see schemas/api). */
export interface Issue {
  path: string
  message: string
}

export interface Project {
  id: string
  slug: string
  name: string
  description: string | null
  url: string
  liveDeploymentId: string | null
  createdAt: string
  updatedAt: string
}

export interface Diagnostic {
  severity: 'error' | 'warning'
  file?: string
  line?: number
  column?: number
  path?: string
  rule?: string
  message: string
}

/** A page of `GET …/deployments/:id/diagnostics`. */
export interface DiagnosticPage {
  diagnostics: Diagnostic[]
  total: number
  nextCursor: string | null
}

export interface Deployment {
  id: string
  projectId: string
  status: 'uploading' | 'building' | 'ready' | 'failed'
  live: boolean
  branch: string
  commitMessage: string | null
  /** `preview` for a Git preview branch's deployment. */
  environment: string | null
  /** Only on deployments made from a Git commit (the Git-connected deploys of issue 19). */
  commitAuthor?: string | null
  url: string | null
  previewUrl: string | null
  fileCount: number
  totalBytes: number
  /** The first few, errors first, on a single deployment; lists carry only the counts. */
  diagnostics?: Diagnostic[]
  diagnosticCount: number
  errorCount: number
  timings: { uploadMs?: number; buildMs?: number }
  createdAt: string
}

export interface DeployKey {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}

export interface DnsRecord {
  type: string
  name: string
  value: string
  purpose: 'ownership' | 'routing'
  use: 'always' | 'subdomain' | 'apex'
  status: string
}

export interface Domain {
  id: string
  hostname: string
  pathPrefix: string
  url: string
  status: 'pending' | 'verified' | 'failed' | 'expired'
  serving: boolean
  records: DnsRecord[]
  failure: { reason: string; message: string } | null
  lastCheckedAt: string | null
}

export interface AnalyticsSettings {
  posthog: { key: string; host: string } | null
}

export interface DeploymentFiles {
  previousDeploymentId: string | null
  changedCount: number
  files: { path: string; sha256: string; size: number; change: 'added' | 'changed' | 'unchanged' }[]
  removed: string[]
}

/** A key and its count over the range (`GET /projects/:id/insights`). */
export interface Counted {
  key: string
  total: number
}

/** `GET /projects/:id/insights` (schemas/api/insights.ts `InsightsReport`). */
export interface InsightsReport {
  enabled: boolean
  from: string
  to: string
  days: { day: string; views: number; visitors: number }[]
  pages: Counted[]
  referrers: Counted[]
  screens: Counted[]
  searches: Counted[]
  searchesWithoutResults: (Counted & { closest: { path: string; title: string }[] })[]
  feedback: { path: string; helpful: number; notHelpful: number }[]
  comments: { day: string; path: string; helpful: boolean; comment: string }[]
  copies: Counted[]
  notFound: (Counted & { redirect: { source: string; destination: string } | null })[]
}

/** `GET …/deployments/:id/report`: a preview's changes against live (schemas/api/change-reports.ts). */
export interface ChangeReport {
  deploymentId: string
  baseDeploymentId: string | null
  status: 'ready' | 'failed'
  error?: string
  url: string
  previewUrl: string | null
  pages: {
    added: { slug: string; title: string }[]
    removed: { slug: string; title: string }[]
    changed: { slug: string; title: string; diff: string }[]
    unchanged: number
  }
  links: {
    introduced: { page: string; href: string; target: string; problem: 'missing-page' | 'missing-anchor' }[]
    fixed: { page: string; href: string; target: string; problem: 'missing-page' | 'missing-anchor' }[]
  }
  warnings: { introduced: Diagnostic[] }
  missingRedirects: {
    slug: string
    title: string
    renamedTo: string | null
    redirect: { source: string; destination: string }
  }[]
  navigation: { change: string; slug: string; title: string; before: string | null; after: string | null }[]
  screenshots: {
    taken: boolean
    reason: string | null
    pages: {
      slug: string
      viewport: 'desktop' | 'phone'
      width: number
      live: { url: string } | null
      preview: { url: string } | null
      difference: { url: string } | null
      differentPixels: number
    }[]
  }
}
