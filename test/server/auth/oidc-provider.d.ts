/** The part of oidc-provider's API the test issuer uses (the package ships no type declarations). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface Account {
    accountId: string
    claims: () => Promise<Record<string, unknown>>
  }

  interface Configuration {
    clients: Record<string, unknown>[]
    claims?: Record<string, string[]>
    findAccount?: (context: unknown, accountId: string) => Promise<Account | undefined>
    features?: Record<string, { enabled: boolean }>
    cookies?: { keys: string[] }
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration)
    callback(): (request: IncomingMessage, response: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
