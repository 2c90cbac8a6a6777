/**
 * Where a build's files go: the caller's sink, each file once, as soon as it is made (only for a
 * build without errors: a failed build delivers nothing); and the inline scripts of every HTML file's
 * head, which the site's Content-Security-Policy allows by hash.
 */
import { inlineScriptsOfHead } from '../security-headers.js'
import type { BuildOptions } from '../types.js'

export class Delivery {
  readonly inlineScripts = new Set<string>()
  readonly streaming: boolean
  readonly #sink: BuildOptions['onFile']
  readonly #delivered = new Set<string>()

  constructor(sink: BuildOptions['onFile'], succeeds: boolean) {
    this.#sink = succeeds ? sink : undefined
    this.streaming = sink !== undefined
  }

  async deliver(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#delivered.has(path)) throw new Error(`${path} was made twice in one build`)
    this.#delivered.add(path)
    this.scan(path, bytes)
    await this.#sink?.(path, bytes)
  }

  scan(path: string, bytes: Uint8Array): void {
    if (!path.endsWith('.html')) return
    const headEnd = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('</head>')
    if (headEnd === -1) return
    const head = new TextDecoder().decode(bytes.subarray(0, headEnd + '</head>'.length))
    for (const script of inlineScriptsOfHead(head)) this.inlineScripts.add(script)
  }
}
