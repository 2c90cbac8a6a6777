/**
 * The shape of the Git-connected deploy settings: the GitHub App (id, private key, webhook secret, API
 * address for GitHub Enterprise), GitLab and Gitea/Forgejo bot tokens, the key that webhook secrets are
 * derived from, the limits of a delivery and a fetch, and which hosts and addresses a fetch may reach.
 * Their flags, variables, defaults and checks are in the settings table (server/settings/table.ts,
 * rules.ts); server/config.ts fills this shape.
 */
export interface GitConfig {
  github: {
    appId: string | undefined
    /** PEM text of the App's private key. */
    privateKey: string | undefined
    webhookSecret: string | undefined
    /** REST API base, `https://api.github.com` or `https://ghe.example.com/api/v3`. */
    apiUrl: string
  }
  /** A bot account's token on a GitLab or Gitea/Forgejo server: reads private repositories, reports statuses. */
  gitlab: { token: string | undefined; apiUrl: string }
  gitea: { token: string | undefined; apiUrl: string | undefined }
  /** Secret key webhook secrets are derived from; undefined: a key file in the data dir. */
  webhookKey: string | undefined
  /** Largest webhook body accepted; larger answers 413. */
  maxWebhookBytes: number
  /** Seconds one `git fetch` may take. */
  fetchTimeoutSeconds: number
  /** Largest pack one fetch may download, in bytes. */
  maxFetchBytes: number
  /** Most entries (files, links) the docs folder of a fetched commit may list, ignored ones included. */
  maxTreeEntries: number
  /**
   * Hosts (`host` or `host:port`, lower-case; `*` any) repositories may be on besides the configured
   * providers' own; fetched without credentials. Empty: only the providers' hosts.
   */
  allowHosts: string[]
  /** Whether a fetch may reach loopback, private and link-local addresses (a Git server on the LAN). */
  allowPrivateAddresses: boolean
}
