import { existsSync } from 'node:fs'
import { mkdir, rename, rmdir, writeFile } from 'node:fs/promises'
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { locateSiteDir, readSiteFiles } from '../../lib/site-dir.js'
import { unifiedDiff } from '../../lib/unified-diff.js'

export class RenameCommand extends Command {
  static override paths = [['rename']]
  static override usage = Command.Usage({
    description: 'Move a page and update navigation, links and redirects',
    details: `
      Moves the page <from> (a .mdx or .md file; the extension may be left out) to <to>, and:
      renames its entries in docs.json's navigation; rewrites links to it in every page, relative and
      absolute, keeping their #anchors; rewrites the moved page's own relative links for its new
      folder; and adds a redirect from the old path to the new one to docs.json \`redirects\` (points
      redirects that led to the old path at the new one, and drops any away from the new path). docs.json keeps its formatting.

      Paths are relative to the docs directory (the first of the current directory, ./docs and
      ./apps/docs that holds a docs.json, or \`--dir\`). Prints a diff of every changed file;
      \`--dry-run\` prints it without writing anything. Refuses when <to> already exists. Exit code: 0
      when done, 1 when <from> is not a page, <to> exists or the directory holds no docs.json.
    `,
    examples: [
      ['Move a page into a folder', 'docsctl rename quickstart guide/quickstart'],
      ['Show what would change, without writing', 'docsctl rename setup.mdx install.mdx --dry-run'],
    ],
  })

  from = Option.String({ name: 'from' })
  to = Option.String({ name: 'to' })
  dir = Option.String('--dir', { description: 'The docs directory (default: ., ./docs or ./apps/docs)' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the diff without writing files' })

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const fail = (message: string) => {
      stderr.write(`${pc.red('error')} ${message}\n`)
      return 1
    }
    const { dir, shown, isDirectory } = await locateSiteDir(this.dir)
    if (!isDirectory || !existsSync(join(dir, 'docs.json')))
      return fail(`no docs.json in "${shown}"; run in the docs directory or pass --dir`)

    const from = this.sitePath(dir, this.from)
    if (from === undefined) return fail(`"${this.from}" is outside the docs directory "${shown}"`)
    const fromFile = ['', '.mdx', '.md']
      .map((extension) => `${from}${extension}`)
      .find((candidate) => /\.mdx?$/i.test(candidate) && existsSync(join(dir, candidate)))
    if (!fromFile) return fail(`no page "${from}.mdx" or "${from}.md" in "${shown}"; pass the page to move`)
    const toPath = this.sitePath(dir, this.to)
    if (toPath === undefined) return fail(`"${this.to}" is outside the docs directory "${shown}"`)
    if (extname(toPath) !== '' && !/\.mdx?$/i.test(toPath))
      return fail(`"${this.to}" is not a page; name it .mdx or .md (or leave the extension out)`)
    const toFile = /\.mdx?$/i.test(toPath) ? toPath : `${toPath}${extname(fromFile)}`

    const { renameInConfig, renameInPage, slugOf } = await import('../rename/rewrite.js')
    const fromSlug = slugOf(fromFile)
    const toSlug = slugOf(toFile)
    const taken = ['.mdx', '.md']
      .map((extension) => `${toSlug}${extension}`)
      .find((file) => existsSync(join(dir, file)))
    if (taken && taken !== fromFile)
      return fail(`"${taken}" already exists; move or delete it first, or choose another name`)
    if (fromSlug === toSlug && fromFile === toFile) return fail(`"${fromFile}" is already at "${toFile}"`)

    const { files } = await readSiteFiles(dir)
    const decoder = new TextDecoder()
    const changed: { path: string; from?: string; before: string; after: string }[] = []
    const configBefore = decoder.decode(files.get('docs.json'))
    changed.push({
      path: 'docs.json',
      before: configBefore,
      after: renameInConfig(configBefore, fromSlug, toSlug),
    })
    for (const [path, bytes] of files) {
      if (!/\.mdx?$/i.test(path)) continue
      const before = decoder.decode(bytes)
      if (path === fromFile) {
        const after = renameInPage(before, toFile, fromSlug, toSlug, fromFile)
        changed.push({ path: toFile, from: fromFile, before, after })
      } else {
        const after = renameInPage(before, path, fromSlug, toSlug)
        if (after !== before) changed.push({ path, before, after })
      }
    }

    for (const file of changed) {
      if (file.from) stdout.write(`rename from ${file.from}\nrename to ${file.path}\n`)
      stdout.write(unifiedDiff(file.path, file.before, file.after, file.from ?? file.path))
    }
    const pages = changed.length - 2
    const summary = `${fromFile} → ${toFile}, a redirect /${fromSlug} → /${toSlug}${pages > 0 ? `, links in ${pages} page${pages === 1 ? '' : 's'}` : ''}`
    if (this.dryRun) {
      stderr.write(`${pc.yellow('○')} would move ${summary} (dry run; nothing written)\n`)
      return 0
    }
    for (const file of changed) {
      if (file.from) {
        await mkdir(dirname(join(dir, file.path)), { recursive: true })
        await rename(join(dir, file.from), join(dir, file.path))
      }
      if (file.after !== file.before) await writeFile(join(dir, file.path), file.after)
    }
    // A folder left empty by the move goes too.
    const oldFolder = dirname(join(dir, fromFile))
    if (oldFolder !== dir) await rmdir(oldFolder).catch(() => undefined)
    stderr.write(`${pc.green('✔')} moved ${summary}\n`)
    return 0
  }

  /**
   * `arg` as a POSIX path inside the docs directory: relative to it, or to the current directory when
   * it starts with the docs directory's own path (`docs/setup.mdx` run from above ./docs).
   */
  private sitePath(dir: string, arg: string): string | undefined {
    const fromCwd = resolve(arg)
    const viaCwd = isAbsolute(arg) || (relative(resolve(), dir) !== '' && fromCwd.startsWith(dir + sep))
    const path = relative(dir, viaCwd ? fromCwd : resolve(dir, arg))
    if (path === '' || path.startsWith('..') || isAbsolute(path)) return undefined
    return path.split(sep).join('/')
  }
}
