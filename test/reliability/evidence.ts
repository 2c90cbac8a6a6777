/**
 * What the suites produced, kept for the secrets scan: every secret a suite created (session tokens,
 * deploy keys) and every text that must not hold one (server logs, API responses, CLI output). A
 * response whose purpose is to hand a secret over (the deploy key's creation) is not recorded as output.
 */
export interface Output {
  /** Where it came from: "crash-during-push: server log", "GET /projects/…". */
  source: string
  text: string
}

export class Evidence {
  readonly secrets = new Map<string, string>()
  readonly outputs: Output[] = []

  secret(kind: string, value: string): void {
    if (value.length >= 8) this.secrets.set(value, kind)
  }

  output(source: string, text: string): void {
    if (text.length > 0) this.outputs.push({ source, text })
  }
}

/** One per run, shared by the suites, read by the secrets scan that runs last. */
export const evidence = new Evidence()
