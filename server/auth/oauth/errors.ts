/**
 * OAuth 2.0 error responses (RFC 6749 §5.2). The body is `{error, error_description}`: `error` is the
 * registered code a client switches on, so it also satisfies the API's `{error: string}` error shape.
 */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error'

export class OAuthError extends Error {
  readonly code: OAuthErrorCode
  /** 401 for a client that failed to authenticate (RFC 6749 §5.2), 400 for everything else. */
  readonly statusCode: 400 | 401

  constructor(
    code: OAuthErrorCode,
    description: string,
    statusCode: 400 | 401 = code === 'invalid_client' ? 401 : 400,
  ) {
    super(description)
    this.name = 'OAuthError'
    this.code = code
    this.statusCode = statusCode
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message }
  }
}
