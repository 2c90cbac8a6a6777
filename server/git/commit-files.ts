/**
 * The docs folder of a fetched commit, read from Git's objects rather than a checkout: the tree is
 * listed with each blob's size (`git ls-tree -r -l`), so a limit is checked before a byte of a file is
 * read, and files are streamed out of one `git cat-file --batch` process in chunks, never whole. The
 * entries kept are the ones `docsctl push` would read (lib/site-dir.ts): no dot-files, no
 * node_modules, nothing `.docsignore` lists, no folder holding a build's output. A symlink is
 * published only when it names a published file of the docs folder; nothing else it points at is
 * read, and a link or a docs folder can never lead into `.git` (there is no checkout at all).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { posix } from 'node:path'
import ignore from 'ignore'
import { BUILD_MARKER, SITE_DIR_CANDIDATES } from '../../lib/site-dir.js'

/** A file of the docs folder: its path inside the folder, its blob and the blob's size. */
export interface DocsFile {
  path: string
  oid: string
  size: number
}

/** A commit's content that cannot be deployed: the message is for the project's owner. */
export class CommitContentError extends Error {}

/** git on the fetched (bare) repository at `dir`: no network, no config of the machine. */
function git(dir: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn('git', [`--git-dir=${dir}`, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_NO_REPLACE_OBJECTS: '1',
    },
  })
}

/** The exit of a git process, an Error with its stderr when it failed. */
function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8')
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) resolve()
      else
        reject(
          new Error(
            `git ${child.spawnargs.slice(2, 3).join(' ')} failed (${signal ?? code}): ${stderr.trim()}`,
          ),
        )
    })
  })
}

interface TreeEntry {
  mode: string
  type: string
  oid: string
  /** Bytes of a blob; undefined for a submodule's commit. */
  size: number | undefined
  path: string
}

/** `git ls-tree -r -l -z <treeish>` one entry at a time; stops with an error past `maxEntries`. */
async function* treeEntries(dir: string, treeish: string, maxEntries: number): AsyncGenerator<TreeEntry> {
  const child = git(dir, ['ls-tree', '-r', '-l', '-z', treeish])
  const done = exited(child)
  let rest = ''
  let count = 0
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const records = (rest + chunk.toString('utf8')).split('\0')
      rest = records.pop() ?? ''
      for (const record of records) {
        count += 1
        if (count > maxEntries)
          throw new CommitContentError(
            `The docs folder lists more than ${maxEntries} entries (--git-max-tree-entries)`,
          )
        // `<mode> SP <type> SP <oid> SP+ <size or -> TAB <path>`
        const tab = record.indexOf('\t')
        const [mode = '', type = '', oid = '', size = '-'] = record.slice(0, tab).split(/ +/)
        yield { mode, type, oid, size: size === '-' ? undefined : Number(size), path: record.slice(tab + 1) }
      }
    }
  } finally {
    if (child.exitCode === null) child.kill()
    await done.catch((error: unknown) => {
      if (count <= maxEntries) throw error
    })
  }
}

const isRegularFile = (entry: TreeEntry) => entry.type === 'blob' && /^100(644|755)$/.test(entry.mode)
const isSymlink = (entry: TreeEntry) => entry.type === 'blob' && entry.mode === '120000'

/**
 * Streams blobs out of one `git cat-file --batch`: a blob is asked for, its header read, then exactly
 * its bytes handed on in the chunks git writes. A reader stopped in the middle of a blob is closed.
 */
export class BlobReader {
  readonly #child: ChildProcessWithoutNullStreams
  readonly #chunks: AsyncIterator<Buffer>
  readonly #done: Promise<void>
  #buffer: Buffer = Buffer.alloc(0)
  #broken = false

  constructor(dir: string) {
    this.#child = git(dir, ['cat-file', '--batch'])
    // A git that died is reported by the read that waits on it, not by a write into its closed pipe.
    this.#child.stdin.on('error', () => {})
    this.#chunks = (this.#child.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]()
    this.#done = exited(this.#child)
    this.#done.catch(() => {})
  }

  async #fill(): Promise<void> {
    const next = await this.#chunks.next()
    if (next.done) throw new Error('git cat-file ended early')
    this.#buffer = this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value])
  }

  /** The bytes of blob `oid`, which must be `size` bytes long, in chunks. */
  async *chunks(oid: string, size: number): AsyncGenerator<Buffer> {
    if (this.#broken) throw new Error('the blob reader was stopped in the middle of a blob')
    this.#broken = true
    this.#child.stdin.write(`${oid}\n`)
    let newline = this.#buffer.indexOf(10)
    while (newline < 0) {
      await this.#fill()
      newline = this.#buffer.indexOf(10)
    }
    const header = this.#buffer.subarray(0, newline).toString('utf8')
    this.#buffer = this.#buffer.subarray(newline + 1)
    const [, type, length] = header.split(' ')
    if (type !== 'blob' || Number(length) !== size)
      throw new Error(`git cat-file answered "${header}" for blob ${oid} of ${size} bytes`)
    let remaining = size
    while (remaining > 0) {
      if (this.#buffer.length === 0) await this.#fill()
      const chunk = this.#buffer.subarray(0, Math.min(remaining, this.#buffer.length))
      this.#buffer = this.#buffer.subarray(chunk.length)
      remaining -= chunk.length
      yield chunk
    }
    // The LF after the bytes.
    if (this.#buffer.length === 0) await this.#fill()
    this.#buffer = this.#buffer.subarray(1)
    this.#broken = false
  }

  /** A small blob whole (docs.json, .docsignore, a link's target). */
  async read(oid: string, size: number): Promise<Buffer> {
    const parts: Buffer[] = []
    for await (const chunk of this.chunks(oid, size)) parts.push(Buffer.from(chunk))
    return Buffer.concat(parts)
  }

  async close(): Promise<void> {
    this.#child.stdin.end()
    if (this.#broken) this.#child.kill()
    await this.#done.catch(() => {})
  }
}

/**
 * The docs folder inside the commit (`''` for its root): the configured one, which must be a folder
 * (not a link), else the first of `.`, `docs`, `apps/docs` that holds a docs.json file.
 */
export async function findDocsFolder(
  dir: string,
  sha: string,
  configured: string | null,
): Promise<{ path: string } | { problem: string }> {
  if (configured !== null) {
    const path = configured === '.' ? '' : configured.replace(/\/+$/, '')
    const child = git(dir, ['cat-file', '-t', `${sha}:${path}`])
    let type = ''
    child.stdout.on('data', (chunk: Buffer) => {
      type += chunk.toString('utf8')
    })
    const found = await exited(child).then(
      () => true,
      () => false,
    )
    return found && type.trim() === 'tree'
      ? { path }
      : { problem: `The docs directory ${configured} is not a folder in the commit` }
  }
  const candidates = SITE_DIR_CANDIDATES.map((candidate) => (candidate === '.' ? '' : candidate))
  const docsJsons = new Set<string>()
  const child = git(dir, [
    'ls-tree',
    '-z',
    sha,
    '--',
    ...candidates.map((candidate) => posix.join(candidate, 'docs.json')),
  ])
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  await exited(child)
  for (const record of output.split('\0')) {
    const tab = record.indexOf('\t')
    const [mode = '', type = ''] = record.slice(0, tab).split(' ')
    if (type === 'blob' && /^100(644|755)$/.test(mode)) docsJsons.add(record.slice(tab + 1))
  }
  const path = candidates.find((candidate) => docsJsons.has(posix.join(candidate, 'docs.json')))
  return path !== undefined
    ? { path }
    : {
        problem: `No docs.json in ${SITE_DIR_CANDIDATES.join(', ')}; set the docs directory of the Git connection`,
      }
}

export interface DocsFolder {
  /** The files a deployment lists, by path. */
  files: DocsFile[]
  /** Entries left out, each with the reason (logged). */
  problems: string[]
}

/** Largest `.docsignore` or link target read. */
const smallFileBytes = 1024 * 1024

/**
 * The files of the docs folder `folder` (`''`: the commit's root) that a deployment would list, with
 * their sizes; no file's bytes are read but `.docsignore`'s and symlinks' targets.
 */
export async function listDocsFolder(
  dir: string,
  sha: string,
  folder: string,
  reader: BlobReader,
  limits: { maxEntries: number },
): Promise<DocsFolder> {
  const treeish = `${sha}:${folder}`
  const candidates = new Map<string, TreeEntry>()
  const links: TreeEntry[] = []
  const buildOutputs: string[] = []
  let docsIgnore: TreeEntry | undefined
  const problems: string[] = []
  for await (const entry of treeEntries(dir, treeish, limits.maxEntries)) {
    const segments = entry.path.split('/')
    const name = segments.at(-1) ?? ''
    if (name === BUILD_MARKER && segments.length > 1 && isRegularFile(entry))
      buildOutputs.push(`${segments.slice(0, -1).join('/')}/`)
    if (entry.path === '.docsignore' && isRegularFile(entry)) docsIgnore = entry
    if (segments.some((segment) => segment.startsWith('.') || segment === 'node_modules')) continue
    if (isRegularFile(entry)) candidates.set(entry.path, entry)
    else if (isSymlink(entry)) links.push(entry)
  }
  const rules = ignore()
  if (docsIgnore) {
    if ((docsIgnore.size ?? 0) > smallFileBytes)
      throw new CommitContentError(`.docsignore is larger than ${smallFileBytes} bytes`)
    rules.add((await reader.read(docsIgnore.oid, docsIgnore.size ?? 0)).toString('utf8'))
  }
  // As lib/site-dir.ts walks: a folder that is ignored or holds a build's output is not entered.
  const isKept = (path: string): boolean => {
    const segments = path.split('/')
    for (let depth = 1; depth < segments.length; depth++) {
      const folderPath = `${segments.slice(0, depth).join('/')}/`
      if (rules.ignores(folderPath) || buildOutputs.includes(folderPath)) return false
    }
    return !rules.ignores(path)
  }
  const files = new Map<string, DocsFile>()
  for (const entry of candidates.values())
    if (isKept(entry.path)) files.set(entry.path, { path: entry.path, oid: entry.oid, size: entry.size ?? 0 })
  // A link names a regular file, never another link.
  const regular = new Map(files)
  for (const link of links) {
    if (!isKept(link.path)) continue
    const size = link.size ?? 0
    const target = size <= 4096 ? (await reader.read(link.oid, size)).toString('utf8') : '/'
    const resolved = posix.normalize(posix.join(posix.dirname(link.path), target))
    const file = target.startsWith('/') || resolved.startsWith('../') ? undefined : regular.get(resolved)
    if (file) files.set(link.path, { ...file, path: link.path })
    else problems.push(`${link.path}: skipped, a symlink that does not name a file of the docs folder`)
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    problems,
  }
}
