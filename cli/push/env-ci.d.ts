// env-ci ships no types; these are the fields docsctl reads (see env-ci's README).
declare module 'env-ci' {
  interface CiEnvironment {
    isCi: boolean
    service?: string
    name?: string
    branch?: string
    prBranch?: string
    isPr?: boolean
    commit?: string
  }
  export default function envCi(options?: { env?: NodeJS.ProcessEnv; cwd?: string }): CiEnvironment
}
