/** The OAuth 2.0 endpoints' bodies (RFC 6749, RFC 7009, RFC 8414) and the sign-in pages' inputs. */

export const OAuthError = {
  $id: 'OAuthError',
  title: 'OAuth error',
  description:
    'RFC 6749 section 5.2: error is the registered code (invalid_request, invalid_client, invalid_grant, unsupported_grant_type, ...).',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: { type: 'string' },
    error_description: { type: 'string' },
  },
} as const

export const OAuthServerMetadata = {
  $id: 'OAuthServerMetadata',
  title: 'OAuth authorization server metadata',
  description:
    'RFC 8414 metadata at /.well-known/oauth-authorization-server, so the CLI discovers the endpoints.',
  type: 'object',
  additionalProperties: false,
  required: [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'revocation_endpoint',
    'response_types_supported',
    'grant_types_supported',
    'code_challenge_methods_supported',
    'token_endpoint_auth_methods_supported',
  ],
  properties: {
    issuer: { type: 'string' },
    authorization_endpoint: { type: 'string' },
    token_endpoint: { type: 'string' },
    revocation_endpoint: { type: 'string' },
    userinfo_endpoint: { type: 'string' },
    response_types_supported: { type: 'array', items: { type: 'string' } },
    grant_types_supported: { type: 'array', items: { type: 'string' } },
    code_challenge_methods_supported: { type: 'array', items: { type: 'string' } },
    token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
    revocation_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
  },
} as const

export const OAuthTokenRequest = {
  $id: 'OAuthTokenRequest',
  title: 'OAuth token request',
  description:
    'POST /oauth/token, form-encoded or JSON: the authorization_code grant (with the PKCE code_verifier) or the refresh_token grant.',
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: {
      type: 'string',
      maxLength: 64,
      description: 'authorization_code or refresh_token; others answer unsupported_grant_type',
    },
    client_id: { type: 'string', maxLength: 64 },
    code: { type: 'string', maxLength: 256 },
    redirect_uri: { type: 'string', maxLength: 2048 },
    code_verifier: { type: 'string', maxLength: 128 },
    refresh_token: { type: 'string', maxLength: 256 },
  },
} as const

export const OAuthTokenResponse = {
  $id: 'OAuthTokenResponse',
  title: 'OAuth token response',
  description:
    'A short-lived access token (dsa_…) and a refresh token (dsr_…) that is replaced on every use.',
  type: 'object',
  additionalProperties: false,
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer', description: 'Seconds the access token stays valid.' },
    refresh_token: { type: 'string' },
  },
} as const

export const OAuthRevokeRequest = {
  $id: 'OAuthRevokeRequest',
  title: 'OAuth token revocation request',
  description:
    'POST /oauth/revoke (RFC 7009), form-encoded or JSON. A refresh token ends its whole sign-in; an access token ends itself.',
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 256 },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
    client_id: { type: 'string', maxLength: 64 },
  },
} as const

export const OAuthRevokeResponse = {
  type: 'object',
  additionalProperties: false,
  description: 'Always empty: revoking an unknown token succeeds too (RFC 7009 section 2.2).',
} as const

export const AuthorizeQuery = {
  type: 'object',
  properties: {
    response_type: { type: 'string', maxLength: 64 },
    client_id: { type: 'string', maxLength: 64 },
    redirect_uri: { type: 'string', maxLength: 2048 },
    state: { type: 'string', maxLength: 512 },
    code_challenge: { type: 'string', maxLength: 128 },
    code_challenge_method: { type: 'string', maxLength: 16 },
  },
} as const

export const CallbackQuery = {
  type: 'object',
  properties: {
    state: { type: 'string', maxLength: 512 },
    code: { type: 'string', maxLength: 2048 },
  },
} as const

export const SignInPageQuery = {
  type: 'object',
  properties: { request: { type: 'string', maxLength: 128 } },
} as const

export const SignInForm = {
  type: 'object',
  properties: {
    request: { type: 'string', maxLength: 128 },
    csrf: { type: 'string', maxLength: 128 },
    email: { type: 'string', maxLength: 254 },
  },
} as const
