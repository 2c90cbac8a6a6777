/**
 * Which addresses a Git fetch may reach: public unicast ones only, unless the server allows private
 * ones. A repository URL is chosen by a project's owner, so without this the server would fetch from
 * its own loopback, its network's private ranges and the cloud metadata address on their behalf.
 */
import { BlockList, isIP } from 'node:net'

/** Loopback, private, link-local, shared, reserved, documentation, multicast and unspecified ranges. */
const notPublic = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv6')

/** Whether `address` (an IP literal) is a public unicast address; IPv4-mapped IPv6 is checked as IPv4. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  try {
    // `::ffff:10.0.0.1` is 10.0.0.1; BlockList checks a mapped address against the IPv4 rules too.
    return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6')
  } catch {
    // An address BlockList cannot read (a scoped `fe80::1%eth0`) is not a public one.
    return false
  }
}
