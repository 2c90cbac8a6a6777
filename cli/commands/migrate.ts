import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { locateSiteDir, readSiteFiles } from '../../lib/site-dir.js'
import { unifiedDiff } from '../../lib/unified-diff.js'

export class MigrateCommand extends Command {
  static override paths = [['migrate']]
  static override usage = Command.Usage({
    description: "Rewrite a site from the hosted platform's format in place",
    details: `
      Converts what docsctl is sure of, keeping the rest of each file as written: a legacy mint.json
      becomes docs.json; the theming keys this service does not support (theme, colors, fonts, icons,
      background, styling) are removed; legacy shapes (top-level anchors, links with "name"/"url") are
      written in the current form; keys that differ from a known one only in case (\`sideBarTitle\`) get
      the known spelling, in docs.json and in page front matter.

      Prints a unified diff of every changed file. \`--dry-run\` prints it without writing anything.
      Run \`docsctl validate\` afterwards for what is left to fix by hand. Without [dir], uses the first of
      the current directory, ./docs and ./apps/docs that holds a docs.json. Exit code: 0 when done, 1
      when the directory cannot be read or holds neither docs.json nor mint.json.
    `,
    examples: [
      ['Migrate the docs in this directory (or ./docs, ./apps/docs)', 'docsctl migrate'],
      ['Show what would change, without writing', 'docsctl migrate ./site --dry-run'],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the diff without writing files' })

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const { dir, shown, isDirectory } = await locateSiteDir(this.dir)
    const { files } = isDirectory ? await readSiteFiles(dir) : { files: new Map<string, Uint8Array>() }
    if (!files.has('docs.json') && !files.has('mint.json')) {
      stderr.write(
        `${pc.red('error')} no docs.json or mint.json in "${shown}"; pass the folder that holds it\n`,
      )
      return 1
    }
    const { migrateSite } = await import('../../compiler/config/migrate.js')
    const migrated = migrateSite(files)
    for (const file of migrated) {
      stdout.write(unifiedDiff(file.path, file.before, file.after, file.from ?? file.path))
      if (this.dryRun) continue
      await writeFile(join(dir, file.path), file.after)
      if (file.from) await rm(join(dir, file.from))
    }
    const notes = migrated.flatMap((file) => file.notes.map((note) => `${file.path}: ${note}`))
    for (const note of notes) stderr.write(`${pc.dim('•')} ${note}\n`)
    const count = `${migrated.length} file${migrated.length === 1 ? '' : 's'}`
    stderr.write(
      migrated.length === 0
        ? `${pc.green('✔')} nothing to migrate in ${shown}\n`
        : this.dryRun
          ? `${pc.yellow('○')} ${count} would change (dry run; nothing written)\n`
          : `${pc.green('✔')} ${count} migrated; run \`docsctl validate${this.dir ? ` ${this.dir}` : ''}\` for what is left\n`,
    )
    return 0
  }
}
