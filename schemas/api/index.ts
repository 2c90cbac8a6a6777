/**
 * The REST API's shapes, written once as JSON Schema literals. The server adds the named ones to
 * Fastify (routes refer to them as `{$ref: 'Name#'}`), the type provider types each handler from its
 * route's schemas, `@fastify/swagger` publishes them in /openapi.json, and the CLI's client takes its
 * types from the same objects through `Shape` and `Input`.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import { AnalyticsSettings, AnalyticsUpdate } from './analytics.js'
import { ChangeReport } from './change-reports.js'
import { ErrorBody } from './common.js'
import { DeployKey, DeployKeyCreate, DeployKeyCreated, DeployKeyList } from './deploy-keys.js'
import { DeploymentFileList } from './deployment-files.js'
import {
  ChunkResult,
  Deployment,
  DeploymentCreate,
  DeploymentCreated,
  DeploymentList,
  Diagnostic,
  DiagnosticList,
  FailedBuild,
  FilesBatchResult,
  Finalize,
  ManifestEntry,
} from './deployments.js'
import { DnsRecord, Domain, DomainCreate, DomainList, DomainVerification, TlsAsk } from './domains.js'
import { GitConnection, GitConnectionUpdate, GitDelivery, GitSettings, WebhookAccepted } from './git.js'
import { InsightEvent, InsightsReport, InsightsSettings } from './insights.js'
import {
  OAuthError,
  OAuthRevokeRequest,
  OAuthServerMetadata,
  OAuthTokenRequest,
  OAuthTokenResponse,
} from './oauth.js'
import { Project, ProjectCreate, ProjectList, ProjectUpdate } from './projects.js'
import { Health, Me, Readiness } from './users.js'

export * from './analytics.js'
export * from './change-reports.js'
export * from './common.js'
export * from './deploy-keys.js'
export * from './deployment-files.js'
export * from './deployments.js'
export * from './domains.js'
export * from './git.js'
export * from './insights.js'
export * from './oauth.js'
export * from './projects.js'
export * from './users.js'

/** Every schema with an `$id`: added to Fastify once and listed under components in /openapi.json. */
export const apiSchemas = [
  AnalyticsSettings,
  AnalyticsUpdate,
  ChangeReport,
  ChunkResult,
  DeployKey,
  DeployKeyCreate,
  DeployKeyCreated,
  DeployKeyList,
  Deployment,
  DeploymentFileList,
  DeploymentCreate,
  DeploymentCreated,
  DeploymentList,
  Diagnostic,
  DiagnosticList,
  DnsRecord,
  Domain,
  DomainCreate,
  DomainList,
  DomainVerification,
  ErrorBody,
  FailedBuild,
  FilesBatchResult,
  Finalize,
  GitConnection,
  GitConnectionUpdate,
  GitDelivery,
  GitSettings,
  Health,
  InsightEvent,
  InsightsReport,
  InsightsSettings,
  ManifestEntry,
  Me,
  OAuthError,
  OAuthRevokeRequest,
  OAuthServerMetadata,
  OAuthTokenRequest,
  OAuthTokenResponse,
  Project,
  ProjectCreate,
  ProjectList,
  ProjectUpdate,
  Readiness,
  TlsAsk,
  WebhookAccepted,
] as const

/** The named schemas, as the `references` that resolve `{$ref: 'Name#'}` in types. */
export type ApiReferences = [...typeof apiSchemas]

/** The value a schema describes once validated: what a handler receives (defaults filled in) or returns. */
export type Shape<Schema extends JSONSchema> = FromSchema<Schema, { references: ApiReferences }>

/** What a client may send for a schema: properties with a `default` may be left out. */
export type Input<Schema extends JSONSchema> = FromSchema<
  Schema,
  { references: ApiReferences; keepDefaultedPropertiesOptional: true }
>
