/**
 * A custom domain's host name as people type it → the lower-case ASCII (IDNA) form DNS and the Host
 * header use. tr46 implements UTS #46 with the STD3 rules and DNS length checks; Node's
 * `url.domainToASCII` applies neither and answers `''` without a reason, so it cannot say what to fix.
 */
import { isIP } from 'node:net'
import { lazyPackage } from '../../lib/lazy-package.js'

const tr46 = lazyPackage<typeof import('tr46')>('tr46')

/** Host names of this service itself: never claimable, nor any name under them. */
export interface ServiceHosts {
  baseDomain: string
  apiHost: string
}

const withoutPort = (host: string): string => host.replace(/:\d+$/, '').toLowerCase()

/** `{hostname}` in ASCII, or the problem in words that say what to fix. */
export function normaliseHostname(
  input: string,
  service: ServiceHosts,
): { hostname: string } | { problem: string } {
  const text = input.trim()
  if (text === '') return { problem: 'give a host name like docs.example.com' }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return { problem: 'give the host name only, without a scheme like https://' }
  if (text.includes('/'))
    return { problem: 'give the host name only, without a path; put a path in pathPrefix' }
  if (text.includes('*')) return { problem: 'wildcards are not supported; add each host name on its own' }
  if (text.includes('@')) return { problem: 'give the host name only, without a user name' }
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (isIP(bare) !== 0) return { problem: 'an IP address cannot be verified in DNS; give a host name' }
  if (text.includes(':'))
    return { problem: 'give the host name without a port; the proxy in front chooses the port' }
  // A fully qualified name may end in the root's dot; the Host header never carries it.
  const name = text.endsWith('.') ? text.slice(0, -1) : text
  const ascii = tr46().toASCII(name, {
    checkBidi: true,
    checkHyphens: true,
    checkJoiners: true,
    useSTD3ASCIIRules: true,
    transitionalProcessing: false,
    // Lengths are checked below, so the message can say which limit was passed.
    verifyDNSLength: false,
  })
  const invalid =
    'not a valid host name: each dot-separated label has 1 to 63 letters, digits or hyphens (or Unicode letters), and does not start or end with a hyphen'
  if (ascii === null || ascii === '') return { problem: invalid }
  if (ascii.length > 253)
    return { problem: `the name has ${ascii.length} characters; DNS allows at most 253` }
  const labels = ascii.split('.')
  if (labels.some((label) => label === '' || label.length > 63)) return { problem: invalid }
  if (labels.length < 2) return { problem: 'give a fully qualified name with a dot, like docs.example.com' }
  // A numeric last label reads as an IPv4 address (`127.1`, `0x7f.1`) to URL parsers and browsers.
  if (/^(\d+|0x[0-9a-f]*)$/i.test(labels.at(-1) ?? ''))
    return { problem: 'an IP address cannot be verified in DNS; give a host name' }
  for (const own of [withoutPort(service.baseDomain), withoutPort(service.apiHost)]) {
    if (ascii === own || ascii.endsWith(`.${own}`))
      return {
        problem: `${ascii} belongs to this docs service (${own}); projects are already served at <slug>.${withoutPort(service.baseDomain)}`,
      }
  }
  return { hostname: ascii }
}
