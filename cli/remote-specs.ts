/**
 * OpenAPI documents that docs.json names by `http(s)` URL are fetched here, by the CLI (`validate`,
 * `build`, `push`, `dev`), and added to the site's files where the compiler looks for them
 * (`_openapi/<hash>.spec`), so they are uploaded with the site: the server never fetches anything
 * during a build.
 *
 * docs.json is the author's, not necessarily the person's running docsctl (a pull request's docs in CI,
 * a cloned repository), so it does not choose where docsctl connects:
 * - A host is fetched without asking only when the person allowed it: `--allow-spec-host <host>`
 *   (repeatable) or `DOCSCTL_ALLOW_SPEC_HOSTS`. In a terminal docsctl asks about any other host; without
 *   one it refuses and says which flag allows it.
 * - A host that is or resolves to a private, loopback, link-local or otherwise non-public address is
 *   fetched only when named that way, never on a yes to the question.
 * - Redirects are followed by hand (at most five), each hop's host allowed or asked like the first; a
 *   redirect to a non-public address is never followed.
 * - The addresses are checked in the connection's own DNS lookup, so a name cannot pass the check with
 *   a public address and then connect to a private one.
 */
import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { Option } from 'clipanion'

/** A spec larger than this is refused (the largest public specs are a few MB). */
const MAX_SPEC_BYTES = 25 * 1024 * 1024
const TIMEOUT_MS = 15_000
const MAX_REDIRECTS = 5

/** The variable that allows spec hosts, as `--allow-spec-host` does: names separated by commas or spaces. */
export const ALLOW_SPEC_HOSTS_ENV = 'DOCSCTL_ALLOW_SPEC_HOSTS'

/** The `--allow-spec-host` option, the same on every command that fetches specs. */
export const allowSpecHostOption = () =>
  Option.Array('--allow-spec-host', {
    description: `Fetch OpenAPI documents that docs.json names on this host (host or host:port) without asking; repeatable (default: ${ALLOW_SPEC_HOSTS_ENV})`,
  })

/** `dns.lookup` with `all: true`, the resolver checked before asking and at each connection. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>

export interface SpecFetchPolicy {
  /** Hosts the person named (`example.com`, `localhost:4010`), lower case. */
  allowedHosts: readonly string[]
  /** Asks the person whether to fetch a document from a host not named; absent when nobody can answer. */
  ask?: (question: { url: string; host: string }) => Promise<boolean>
  /** The resolver (the system's by default). */
  resolve?: ResolveAll
}

/**
 * The policy of one command run: hosts from `--allow-spec-host` and `DOCSCTL_ALLOW_SPEC_HOSTS`, and a
 * question in the terminal when `interactive`.
 */
export function specFetchPolicy(input: {
  flags: readonly string[] | undefined
  env: NodeJS.ProcessEnv
  interactive: boolean
}): SpecFetchPolicy {
  const named = [...(input.flags ?? []), ...(input.env[ALLOW_SPEC_HOSTS_ENV] ?? '').split(/[\s,]+/)]
  const allowedHosts = [...new Set(named.map(normaliseHost).filter((host) => host !== ''))]
  return input.interactive ? { allowedHosts, ask: askInTerminal } : { allowedHosts }
}

async function askInTerminal({ url, host }: { url: string; host: string }): Promise<boolean> {
  const prompts = await import('@clack/prompts')
  const answer = await prompts.confirm({
    message: `docs.json names an OpenAPI document on ${host} (${url}). Fetch it? (--allow-spec-host ${host} skips this question)`,
    initialValue: false,
  })
  return !prompts.isCancel(answer) && answer
}

/** A host as a URL writes it: `Example.com.` → `example.com`, `::1` → `[::1]`, a URL → its host. */
function normaliseHost(entry: string): string {
  let host = entry.trim().toLowerCase()
  if (host === '') return ''
  if (isIP(host) === 6) return `[${host}]`
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) {
    try {
      host = new URL(host).host
    } catch {
      return ''
    }
  }
  return host.replace(/\/.*$/, '').replace(/\.(?=$|:\d+$)/, '')
}

/** Spec URLs docs.json names (`api.openapi`, sections' `openapi`). */
export async function remoteSpecUrls(files: ReadonlyMap<string, Uint8Array>): Promise<string[]> {
  // Loaded here, not at the top: every docsctl command imports this module for its option, and most
  // never read docs.json (see cli/main.ts on start-up time).
  const { loadConfig } = await import('../compiler/config/index.js')
  const { configSpecSources, isSpecUrl } = await import('../compiler/openapi/sources.js')
  const { config } = loadConfig(files, { mode: 'lenient' })
  return config ? configSpecSources(config).filter(isSpecUrl) : []
}

/**
 * Fetches every spec URL of docs.json that `policy` allows into `files`. Returns a problem line for each
 * that was not fetched (the build then leaves its pages out and says so); never throws.
 */
export async function fetchRemoteSpecs(
  files: Map<string, Uint8Array>,
  policy: SpecFetchPolicy,
): Promise<string[]> {
  const permissions = new Permissions(policy)
  const problems: string[] = []
  const { fetchedSpecPath } = await import('../compiler/openapi/sources.js')
  await Promise.all(
    (await remoteSpecUrls(files)).map(async (url) => {
      try {
        files.set(fetchedSpecPath(url), await fetchSpec(new URL(url), permissions))
      } catch (error) {
        problems.push(
          error instanceof Refusal
            ? `docs.json: not fetching the OpenAPI document ${url}: ${error.message}; its pages are left out`
            : `docs.json: cannot fetch the OpenAPI document ${url} (${failure(error)}); its pages are left out`,
        )
      }
    }),
  )
  return problems
}

/**
 * Fetches one OpenAPI document the person named on the command line (`docsctl openapi-check <url>`):
 * its host counts as allowed, as with `--allow-spec-host`; redirects elsewhere follow `policy`.
 * Throws an Error saying what failed or why docsctl will not fetch it.
 */
export async function fetchNamedSpec(url: URL, policy: SpecFetchPolicy): Promise<Uint8Array> {
  const allowedHosts = [...policy.allowedHosts, normaliseHost(url.host)]
  try {
    return await fetchSpec(url, new Permissions({ ...policy, allowedHosts }))
  } catch (error) {
    throw error instanceof Refusal ? error : new Error(failure(error))
  }
}

/** A fetch docsctl will not make; the message says why and how to allow it. */
class Refusal extends Error {}

const failure = (error: unknown): string =>
  error instanceof Error
    ? error.cause instanceof Error
      ? error.cause.message
      : error.message
    : String(error)

/** The person's answers, asked one at a time and once a host. */
class Permissions {
  readonly #policy: SpecFetchPolicy
  readonly #answers = new Map<string, Promise<boolean>>()
  #questions: Promise<unknown> = Promise.resolve()
  readonly resolve: ResolveAll

  constructor(policy: SpecFetchPolicy) {
    this.#policy = policy
    this.resolve = policy.resolve ?? ((hostname) => dnsLookup(hostname, { all: true }))
  }

  /** Whether the person named this URL's host (with or without its port). */
  named(url: URL): boolean {
    const { name, port } = hostOf(url)
    return this.#policy.allowedHosts.some((allowed) => allowed === name || allowed === `${name}:${port}`)
  }

  /**
   * Throws a Refusal unless the URL may be fetched: named, or public and said yes to. `redirected`: a
   * hop of a redirect, which never goes to a non-public address.
   */
  async check(url: URL, redirected: boolean): Promise<void> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Refusal(`it redirects to ${url.href}, which is not an http(s) URL`)
    const named = this.named(url)
    if (named && !redirected) return
    const { hostname, display } = hostOf(url)
    const privateAddress = await this.#privateAddress(hostname)
    if (privateAddress !== undefined) {
      if (redirected)
        throw new Refusal(
          `it redirects to ${url.href}, a private or loopback address (${privateAddress}), and docsctl never follows a redirect there`,
        )
      throw new Refusal(
        `${display} is a private or loopback address (${privateAddress}); pass --allow-spec-host ${display} to fetch from it`,
      )
    }
    if (named) return
    if (!(await this.#ask(url, display)))
      throw new Refusal(
        `${display} is not an allowed spec host; pass --allow-spec-host ${display} or add it to ${ALLOW_SPEC_HOSTS_ENV}`,
      )
  }

  /** The first non-public address the host is or resolves to. */
  async #privateAddress(hostname: string): Promise<string | undefined> {
    if (isIP(hostname)) return isPublicAddress(hostname) ? undefined : hostname
    const addresses = await this.resolve(hostname)
    return addresses.find(({ address }) => !isPublicAddress(address))?.address
  }

  #ask(url: URL, host: string): Promise<boolean> {
    const ask = this.#policy.ask
    if (!ask) return Promise.resolve(false)
    let answer = this.#answers.get(host)
    if (!answer) {
      answer = this.#questions.then(() => ask({ url: url.href, host }))
      this.#questions = answer.catch(() => undefined)
      this.#answers.set(host, answer)
    }
    return answer
  }
}

/**
 * The URL's host as the person names it (`name`: `example.com`, `[::1]`), as it is resolved
 * (`hostname`: no brackets), and as messages show it (`display`: with the port when the URL has one).
 */
function hostOf(url: URL): { name: string; hostname: string; port: string; display: string } {
  const name = url.hostname.replace(/\.$/, '').toLowerCase()
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  const display = url.port ? `${name}:${url.port}` : name
  return { name, hostname: name.replace(/^\[|\]$/g, ''), port, display }
}

async function fetchSpec(start: URL, permissions: Permissions): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(TIMEOUT_MS)
  let url = start
  for (let hop = 0; ; hop++) {
    await permissions.check(url, hop > 0)
    // A named host may be private; any other host, and every hop of a redirect, must stay public.
    const response = await get(url, {
      signal,
      allowPrivate: hop === 0 && permissions.named(url),
      resolve: permissions.resolve,
    })
    const status = response.statusCode ?? 0
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume()
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`)
      url = new URL(response.headers.location, url)
      continue
    }
    if (status < 200 || status >= 300) {
      response.resume()
      throw new Error(`HTTP ${status}`)
    }
    return readBody(response)
  }
}

/** One GET, connecting only to addresses the lookup allows. */
function get(
  url: URL,
  options: { signal: AbortSignal; allowPrivate: boolean; resolve: ResolveAll },
): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'GET',
      signal: options.signal,
      headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
      // An IP literal is never looked up: it was checked as the host itself.
      lookup: (hostname, lookupOptions, callback) => {
        options.resolve(hostname).then(
          (addresses) => {
            const refused = options.allowPrivate
              ? undefined
              : addresses.find(({ address }) => !isPublicAddress(address))
            if (refused) {
              const error = new Error(
                `${hostname} resolved to ${refused.address}, a private or loopback address`,
              )
              callback(Object.assign(error, { code: 'ENOTPUBLIC' }), '', 0)
            } else if (addresses.length === 0) {
              callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0)
            } else if (lookupOptions.all)
              (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
            else callback(null, addresses[0]!.address, addresses[0]!.family)
          },
          (error: NodeJS.ErrnoException) => callback(error, '', 0),
        )
      },
    })
    outgoing.on('response', resolve)
    outgoing.on('error', reject)
    outgoing.end()
  })
}

async function readBody(response: IncomingMessage): Promise<Uint8Array> {
  const tooLarge = () => new Error(`larger than ${MAX_SPEC_BYTES / 1024 / 1024} MB`)
  if (Number(response.headers['content-length'] ?? 0) > MAX_SPEC_BYTES) {
    response.destroy()
    throw tooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > MAX_SPEC_BYTES) {
      response.destroy()
      throw tooLarge()
    }
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/**
 * Addresses that are not on the public internet: this host, private networks, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, benchmarking, multicast and reserved ranges, and
 * IPv6's equivalents. A BlockList checks an IPv4-mapped address (`::ffff:127.0.0.1`) against the IPv4
 * ranges itself; a NAT64 one (`64:ff9b::7f00:1`, what DNS64 answers on an IPv6-only network) is checked
 * by the IPv4 address it carries.
 */
const NON_PUBLIC = (() => {
  const list = new BlockList()
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(network, prefix, 'ipv4')
  for (const [network, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const)
    list.addSubnet(network, prefix, 'ipv6')
  return list
})()

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 6) {
    const groups = ipv6Groups(address)
    const nat64 = [0x64, 0xff9b, 0, 0, 0, 0].every((group, i) => groups[i] === group)
    if (nat64) {
      const [high, low] = [groups[6]!, groups[7]!]
      return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`)
    }
  }
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '')
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16))
  const start = parse(head)
  const end = tail === undefined ? [] : parse(tail)
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end]
}
