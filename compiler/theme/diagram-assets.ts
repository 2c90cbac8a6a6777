/**
 * The mermaid bundle (vendored in vendor/mermaid/ by `npm run vendor:update`, never a CDN) and the small script that
 * draws the page's diagrams with it (compiler/theme/client/diagrams.ts), emitted as hashed files under
 * `_assets/` and loaded only by pages that have a diagram. Diagrams are drawn in the reader's browser:
 * no DOM-free renderer of Mermaid runs on Node 20, and mermaid itself needs a browser's layout.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fromPackageRoot } from '../assets.js'
import { readVendored } from '../vendor.js'
import { MissingThemeAssetError } from './assets.js'

/** Bundled from compiler/theme/client/diagrams.ts by `npm run build:client`. */
export const DIAGRAM_SCRIPT = 'dist/compiler/theme/assets/diagrams.js'

export interface DiagramFiles {
  /** mermaid.min.js: defines `globalThis.mermaid`. */
  mermaidPath: string
  /** The script that draws `.d-mermaid` blocks with it, loaded after it. */
  scriptPath: string
  files: Map<string, Uint8Array>
}

let cached: DiagramFiles | undefined

const shortHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12)

/** The diagram files, read once per process. */
export function diagramFiles(): DiagramFiles {
  if (cached) return cached
  const mermaid = readVendored('mermaid/mermaid.min.js')
  let script: Uint8Array
  try {
    script = readFileSync(fromPackageRoot(DIAGRAM_SCRIPT))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingThemeAssetError(DIAGRAM_SCRIPT)
    throw error
  }
  const mermaidPath = `_assets/mermaid.${shortHash(mermaid)}.js`
  const scriptPath = `_assets/diagrams.${shortHash(script)}.js`
  cached = {
    mermaidPath,
    scriptPath,
    files: new Map([
      [mermaidPath, new Uint8Array(mermaid)],
      [scriptPath, new Uint8Array(script)],
    ]),
  }
  return cached
}
