/**
 * `npm run vendor:update [mermaid@X] [lucide-static@Y]`: refreshes the third-party files a build ships
 * (vendor/), so installing docsctl does not pull two packages of 150 MB for 4 MB of them. Each package
 * is fetched from the npm registry with `npm pack`, the files a build needs are taken out of it, and
 * vendor/manifest.json records the version and each file's sha256 (test/compiler/vendor.test.ts checks
 * them, so a hand edit or a half-done update fails the suite).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fromPackageRoot } from '../compiler/assets.js'
import { lucideShapesOf, VENDOR_MANIFEST, type VendorManifest } from '../compiler/vendor.js'

interface VendoredPackage {
  name: string
  version: string
  /** The files to keep, by path under vendor/, from the unpacked package folder. */
  take(unpacked: string): Map<string, Uint8Array>
}

const encoder = new TextEncoder()

const packages: VendoredPackage[] = [
  {
    name: 'mermaid',
    version: '11.17.2',
    take: (unpacked) =>
      new Map([
        ['mermaid/mermaid.min.js', readFileSync(join(unpacked, 'dist', 'mermaid.min.js'))],
        ['mermaid/LICENSE', readFileSync(join(unpacked, 'LICENSE'))],
      ]),
  },
  {
    name: 'lucide-static',
    version: '1.62.0',
    take(unpacked) {
      // One JSON of every icon's shapes, read from its own .svg exactly as pages draw it.
      const icons: Record<string, [string, Record<string, string>][]> = {}
      const folder = join(unpacked, 'icons')
      for (const file of readdirSync(folder).sort()) {
        if (!file.endsWith('.svg')) continue
        const shapes = lucideShapesOf(readFileSync(join(folder, file), 'utf8'))
        if (shapes.length > 0) icons[file.slice(0, -'.svg'.length)] = shapes
      }
      return new Map([
        ['lucide/icons.json', encoder.encode(`${JSON.stringify(icons)}\n`)],
        ['lucide/LICENSE', readFileSync(join(unpacked, 'LICENSE'))],
      ])
    },
  },
]

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

function unpack(name: string, version: string, into: string): string {
  const tarball = execFileSync(
    'npm',
    ['pack', `${name}@${version}`, '--silent', '--pack-destination', into],
    {
      encoding: 'utf8',
    },
  ).trim()
  const folder = join(into, name)
  mkdirSync(folder, { recursive: true })
  execFileSync('tar', ['-xzf', join(into, tarball), '-C', folder, '--strip-components=1'])
  return folder
}

const wanted = new Map(
  process.argv.slice(2).map((spec) => {
    const at = spec.lastIndexOf('@')
    return [spec.slice(0, at), spec.slice(at + 1)] as const
  }),
)
for (const name of wanted.keys())
  if (!packages.some((entry) => entry.name === name))
    throw new Error(`${name} is not vendored; vendored: ${packages.map((entry) => entry.name).join(', ')}`)

const work = mkdtempSync(join(tmpdir(), 'docsctl-vendor-'))
const manifest: VendorManifest = { packages: {} }
try {
  for (const entry of packages) {
    const version = wanted.get(entry.name) ?? entry.version
    const files = entry.take(unpack(entry.name, version, work))
    const hashes: Record<string, string> = {}
    for (const [path, bytes] of files) {
      const target = fromPackageRoot('vendor', path)
      mkdirSync(join(target, '..'), { recursive: true })
      writeFileSync(target, bytes)
      hashes[path] = sha256(bytes)
    }
    manifest.packages[entry.name] = { version, files: hashes }
    console.log(`${entry.name}@${version}: ${[...files.keys()].join(', ')}`)
  }
  writeFileSync(fromPackageRoot('vendor', VENDOR_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
