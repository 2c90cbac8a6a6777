/**
 * CI's supply-chain check: the lockfile and installed tree (offline), what `npm audit signatures`
 * answered, told apart into verified, unreachable (CI goes on, saying so) and failed, and what
 * `npm audit --omit=dev` answered: checked, high or critical advisories (CI fails), or refused.
 */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { fromPackageRoot } from '../../compiler/assets.js'
import {
  classifyAdvisories,
  classifyAudit,
  type InstalledPackage,
  installedIn,
  lockfileProblems,
} from '../../lib/dependency-check.js'

const integrity = `sha512-${'A'.repeat(86)}==`

test('this repository: every locked package is from the registry with sha512, and installed as locked', async () => {
  const lock = JSON.parse(await readFile(fromPackageRoot('package-lock.json'), 'utf8')) as unknown
  assert.deepEqual(lockfileProblems(lock, installedIn(fromPackageRoot('.'))), [])
})

test('a package from elsewhere, without a sha512 integrity, or installed other than locked is a problem', () => {
  const lock = {
    packages: {
      '': { name: 'docsctl' },
      'node_modules/good': { version: '1.0.0', integrity },
      'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@github.com/x/y.git#abc' },
      'node_modules/tarball': { version: '2.0.0', resolved: 'https://evil.example/t.tgz', integrity },
      'node_modules/sha1': { version: '1.0.0', integrity: 'sha1-abcdefabcdefabcdefabcdefabc=' },
      'node_modules/@s/swapped': { version: '3.0.0', integrity },
      'node_modules/a/node_modules/missing': { version: '1.0.0', integrity },
      'node_modules/platform-only': { version: '1.0.0', integrity, optional: true },
      'node_modules/alias': { name: 'real', version: '1.0.0', integrity },
      'node_modules/linked': { link: true },
    },
  }
  const tree: Record<string, { name: string; version: string }> = {
    'node_modules/good': { name: 'good', version: '1.0.0' },
    'node_modules/from-git': { name: 'from-git', version: '1.0.0' },
    'node_modules/tarball': { name: 'tarball', version: '2.0.0' },
    'node_modules/sha1': { name: 'sha1', version: '1.0.0' },
    'node_modules/@s/swapped': { name: '@s/swapped', version: '3.0.1' },
    'node_modules/alias': { name: 'real', version: '1.0.0' },
  }
  const installed: InstalledPackage = (path) => tree[path]
  assert.deepEqual(lockfileProblems(lock, installed), [
    'node_modules/from-git (from-git@1.0.0) comes from git+ssh://git@github.com/x/y.git#abc, not from https://registry.npmjs.org/',
    'node_modules/from-git (from-git@1.0.0) has no sha512 integrity in the lockfile',
    'node_modules/tarball (tarball@2.0.0) comes from https://evil.example/t.tgz, not from https://registry.npmjs.org/',
    'node_modules/sha1 (sha1@1.0.0) has no sha512 integrity in the lockfile',
    'node_modules/@s/swapped (@s/swapped@3.0.0) is locked, but @s/swapped@3.0.1 is installed',
    'node_modules/a/node_modules/missing (missing@1.0.0) is locked but not installed',
  ])
  assert.deepEqual(lockfileProblems({ lockfileVersion: 1, dependencies: {} }, installed), [
    'package-lock.json has no "packages" (lockfileVersion 2 or later is needed)',
  ])
})

test('what npm audit signatures answered: verified, unreachable (go on, saying so) or failed', () => {
  // What this machine's npm 11 printed: Sigstore's TUF repository cannot be resolved here.
  const offline = `npm error code ENOTFOUND
npm error syscall getaddrinfo
npm error errno ENOTFOUND
npm error network request to https://tuf-repo-cdn.sigstore.dev/15.root.json failed, reason: getaddrinfo ENOTFOUND tuf-repo-cdn.sigstore.dev
npm error network This is a problem related to network connectivity.`
  assert.deepEqual(classifyAudit(1, offline), {
    kind: 'unreachable',
    reason:
      'network request to https://tuf-repo-cdn.sigstore.dev/15.root.json failed, reason: getaddrinfo ENOTFOUND tuf-repo-cdn.sigstore.dev',
  })
  // A registry (or mirror) without signing keys: npm finds nothing it can check.
  assert.equal(
    classifyAudit(1, 'npm error found no dependencies to audit that were installed from a supported registry')
      .kind,
    'unreachable',
  )
  assert.equal(classifyAudit(null, '').kind, 'unreachable', 'killed at the time limit')
  assert.equal(classifyAudit(1, 'npm error code E503\nnpm error 503 Service Unavailable').kind, 'unreachable')

  const verified = classifyAudit(
    0,
    'audited 890 packages in 4s\n\n890 packages have verified registry signatures\n\n12 packages have verified attestations\n',
  )
  assert.deepEqual(verified, {
    kind: 'verified',
    summary: 'audited 890 packages in 4s; 890 packages have verified registry signatures',
  })

  const tampered = `audited 890 packages in 4s

1 package has an invalid registry signature:

left-pad@1.3.0 (https://registry.npmjs.org/)

Someone might have tampered with this package since it was published on the registry!`
  assert.equal(classifyAudit(1, tampered).kind, 'failed')
  assert.equal(
    classifyAudit(
      1,
      '2 packages have missing registry signatures but the registry is providing signing keys:',
    ).kind,
    'failed',
  )
  assert.equal(classifyAudit(1, 'npm error code ELOCKVERIFY\nnpm error lockfile out of date').kind, 'failed')
})

test('what npm audit --omit=dev answered: checked, high or critical (fail), or refused (go on, saying so)', () => {
  const report = (vulnerabilities: Record<string, { severity: string }>, counts: Record<string, number>) =>
    JSON.stringify({ auditReportVersion: 2, vulnerabilities, metadata: { vulnerabilities: counts } })
  assert.deepEqual(classifyAdvisories(0, report({}, { low: 0, high: 0, critical: 0, total: 0 }), ''), {
    kind: 'checked',
    counts: { low: 0, high: 0, critical: 0, total: 0 },
  })
  const moderate = report({ marked: { severity: 'moderate' } }, { moderate: 1, high: 0, total: 1 })
  assert.equal(classifyAdvisories(1, moderate, '').kind, 'checked')
  const high = report(
    { marked: { severity: 'moderate' }, tar: { severity: 'high' }, ws: { severity: 'critical' } },
    { moderate: 1, high: 1, critical: 1, total: 3 },
  )
  assert.deepEqual(classifyAdvisories(1, high, ''), {
    kind: 'high',
    counts: { moderate: 1, high: 1, critical: 1, total: 3 },
    packages: ['tar (high)', 'ws (critical)'],
  })
  // What this workplace's registry answers: the advisory endpoint refuses the call.
  const refused = classifyAdvisories(
    1,
    JSON.stringify({ message: 'audit endpoint returned an error', error: {} }),
    'npm warn audit 405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk\nnpm error audit endpoint returned an error\n',
  )
  assert.deepEqual(refused, {
    kind: 'refused',
    reason:
      'audit 405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
  })
  assert.equal(classifyAdvisories(null, '', '').kind, 'refused')
  assert.equal(classifyAdvisories(1, 'not json', 'npm error code ENOTFOUND').kind, 'refused')
})

test('.ci/run runs the check after npm ci and before npm test', async () => {
  const script = await readFile(fromPackageRoot('.ci/run'), 'utf8')
  const lines = script.split('\n')
  const at = (command: string) => lines.indexOf(command)
  assert.ok(at('npm ci') >= 0 && at('npm test') >= 0)
  assert.ok(at('npm ci') < at('node dist/lib/dependency-check.js'))
  assert.ok(at('node dist/lib/dependency-check.js') < at('npm test'))
})
