/**
 * What a push shows while it works: a progress bar on a terminal, plain lines otherwise (CI logs,
 * pipes), so logs stay readable. Colours follow picocolors, which honours NO_COLOR.
 */
import type { Writable } from 'node:stream'
import pc from 'picocolors'
import { lazyPackage } from '../../lib/lazy-package.js'
import { formatPhase, type PhaseTiming } from './phases.js'
import type { UploadProgress } from './upload.js'

/** Loaded when a push draws its bar, not by every command. */
const cliProgress = lazyPackage<typeof import('cli-progress')>('cli-progress')

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

export interface PushReporter {
  line(text: string): void
  /** A finished phase: one line with its time where no one watches a terminal (CI, pipes). */
  phase(timing: PhaseTiming): void
  startUpload(files: number, bytes: number): UploadProgress & { stop(): void }
  startBuild(): { update(status: string): void; stop(): void }
}

export function createReporter(stream: Writable & { isTTY?: boolean }, env = process.env): PushReporter {
  const tty = Boolean(stream.isTTY) && !env.CI
  return {
    line: (text) => stream.write(`${text}\n`),
    phase: (timing) => {
      if (!tty) stream.write(`${formatPhase(timing)}\n`)
    },
    startUpload(files, bytes) {
      stream.write(`Uploading ${files} file${files === 1 ? '' : 's'} (${formatBytes(bytes)})…\n`)
      if (!tty || bytes === 0) return { advance: () => {}, stop: () => {} }
      const bar = new (cliProgress().SingleBar)({
        stream,
        format: `  ${pc.cyan('{bar}')} {percentage}% | {done} of {size}`,
        barCompleteChar: '█',
        barIncompleteChar: '░',
        hideCursor: true,
        clearOnComplete: true,
        fps: 10,
      })
      let done = 0
      bar.start(bytes, 0, { done: formatBytes(0), size: formatBytes(bytes) })
      return {
        advance(amount) {
          done += amount
          bar.update(done, { done: formatBytes(done) })
        },
        stop: () => bar.stop(),
      }
    },
    startBuild() {
      stream.write('Building…\n')
      if (!tty) return { update: () => {}, stop: () => {} }
      const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
      let frame = 0
      let status = 'building'
      const timer = setInterval(() => {
        stream.write(`\r${pc.cyan(frames[frame++ % frames.length]!)} ${status}   `)
      }, 100)
      return {
        update: (next) => {
          status = next
        },
        stop: () => {
          clearInterval(timer)
          stream.write('\r\x1b[K')
        },
      }
    },
  }
}
