/** Custom domains: DNS-verified claims of a host name (and path prefix) by a project. */

import { pathId, ref } from './common.js'

const domainStatus = {
  type: 'string',
  enum: ['pending', 'verified', 'failed', 'expired'],
  description:
    'pending: not checked yet; verified: serving; failed: the last check failed (see failure); expired: not verified in time (--domain-pending-days, 7 by default), or taken over by another project that proved the name in DNS',
} as const

export const DnsRecord = {
  $id: 'DnsRecord',
  title: 'DnsRecord',
  description: 'A DNS record to create for a custom domain, with what the last check found.',
  type: 'object',
  required: ['type', 'name', 'value', 'purpose', 'use', 'status'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['TXT', 'CNAME', 'A', 'AAAA'] },
    name: { type: 'string', description: 'Fully qualified record name' },
    value: { type: 'string' },
    purpose: {
      type: 'string',
      enum: ['ownership', 'routing'],
      description: 'ownership: proves the domain is yours; routing: sends its traffic to this service',
    },
    use: {
      type: 'string',
      enum: ['always', 'subdomain', 'apex'],
      description:
        'subdomain: a CNAME for names like docs.example.com; apex: A/AAAA for names like example.com',
    },
    status: {
      type: 'string',
      enum: ['unchecked', 'ok', 'missing', 'wrong_value', 'points_elsewhere', 'timed_out', 'lookup_failed'],
    },
  },
} as const

export const Domain = {
  $id: 'Domain',
  title: 'Domain',
  description: 'A custom domain of a project: served at https://hostname + pathPrefix once verified in DNS.',
  type: 'object',
  required: [
    'id',
    'projectId',
    'hostname',
    'pathPrefix',
    'url',
    'status',
    'serving',
    'records',
    'failure',
    'graceEndsAt',
    'expiresAt',
    'createdAt',
    'verifiedAt',
    'lastCheckedAt',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    projectId: { type: 'string' },
    hostname: { type: 'string', description: 'Lower-case ASCII (IDNA) host name' },
    pathPrefix: { type: 'string', description: '"/" for the whole host, else like /docs' },
    url: { type: 'string' },
    status: domainStatus,
    serving: { type: 'boolean' },
    records: { type: 'array', items: ref(DnsRecord) },
    failure: {
      type: ['object', 'null'],
      required: ['reason', 'message'],
      additionalProperties: false,
      properties: {
        reason: {
          type: 'string',
          enum: [
            'record_missing',
            'wrong_value',
            'points_elsewhere',
            'lookup_timed_out',
            'lookup_failed',
            'expired',
            'taken_over',
            'claimed_elsewhere',
          ],
        },
        message: { type: 'string' },
      },
    },
    graceEndsAt: {
      type: ['string', 'null'],
      description: 'A verified domain whose records stopped checking out stops serving at this time',
    },
    expiresAt: { type: ['string', 'null'], description: 'An unverified domain expires at this time' },
    createdAt: { type: 'string' },
    verifiedAt: { type: ['string', 'null'] },
    lastCheckedAt: { type: ['string', 'null'] },
  },
} as const

export const DomainCreate = {
  $id: 'DomainCreate',
  title: 'DomainCreate',
  type: 'object',
  required: ['hostname'],
  additionalProperties: false,
  properties: {
    hostname: {
      type: 'string',
      maxLength: 2000,
      description: 'A fully qualified host name (Unicode names are IDNA-encoded), no scheme, port or path',
    },
    pathPrefix: {
      type: 'string',
      maxLength: 2000,
      description: 'Mount path like /docs: "/" then path segments, no trailing slash; default the whole host',
    },
  },
} as const

export const DomainList = {
  $id: 'DomainList',
  title: 'DomainList',
  type: 'object',
  required: ['domains'],
  additionalProperties: false,
  properties: { domains: { type: 'array', items: ref(Domain) } },
} as const

export const DomainVerification = {
  $id: 'DomainVerification',
  title: 'DomainVerification',
  description: 'The DNS records a domain needs and what the last check found.',
  type: 'object',
  required: ['domainId', 'hostname', 'pathPrefix', 'status', 'records', 'failure', 'lastCheckedAt'],
  additionalProperties: false,
  properties: {
    domainId: { type: 'string' },
    hostname: { type: 'string' },
    pathPrefix: { type: 'string' },
    status: domainStatus,
    records: { type: 'array', items: ref(DnsRecord) },
    failure: Domain.properties.failure,
    lastCheckedAt: { type: ['string', 'null'] },
  },
} as const

export const TlsAsk = {
  $id: 'TlsAsk',
  title: 'TlsAsk',
  description: 'The on-demand TLS answer: this host name is a verified custom domain.',
  type: 'object',
  required: ['hostname', 'verified'],
  additionalProperties: false,
  properties: {
    hostname: { type: 'string' },
    verified: { type: 'boolean' },
  },
} as const

export const DomainParams = {
  type: 'object',
  required: ['projectId', 'domainId'],
  properties: { projectId: pathId, domainId: pathId },
} as const

export const TlsAskQuery = {
  type: 'object',
  required: ['domain'],
  properties: { domain: { type: 'string', minLength: 1, maxLength: 300 } },
} as const
