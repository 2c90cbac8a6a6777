import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { locateSiteDir, readSiteFiles } from '../../lib/site-dir.js'
import { unifiedDiff } from '../../lib/unified-diff.js'

export class UpgradeCommand extends Command {
  static override paths = [['upgrade']]
  static override usage = Command.Usage({
    description: 'Convert a legacy mint.json to docs.json',
    details: `
      Writes docs.json from the legacy mint.json and removes mint.json: navigation groups, tabs, top-bar
      links, anchors and footer socials in the current shape; the theming keys this service does not
      support are left out. Pages are not touched: \`docsctl migrate\` does this and also fixes pages'
      front matter.

      Prints a unified diff. \`--dry-run\` prints it without writing anything. When docs.json already
      exists there is nothing to upgrade. Without [dir], uses the first of the current directory,
      ./docs and ./apps/docs that holds a docs.json. Exit code: 0 when done or already upgraded, 1 when
      the directory holds neither docs.json nor mint.json.
    `,
    examples: [
      ['Upgrade mint.json in this directory', 'docsctl upgrade'],
      ['Show the docs.json that would be written', 'docsctl upgrade ./site --dry-run'],
    ],
  })

  dir = Option.String({ required: false, name: 'dir' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the diff without writing files' })

  override async execute(): Promise<number> {
    const { stdout, stderr } = this.context
    const { dir, shown, isDirectory } = await locateSiteDir(this.dir)
    const { files } = isDirectory ? await readSiteFiles(dir) : { files: new Map<string, Uint8Array>() }
    if (files.has('docs.json')) {
      const leftOver = files.has('mint.json') ? '; mint.json is no longer read and can be deleted' : ''
      stderr.write(`${pc.green('✔')} ${shown} already has docs.json${leftOver}\n`)
      return 0
    }
    if (!files.has('mint.json')) {
      stderr.write(`${pc.red('error')} no mint.json in "${shown}"; pass the folder that holds it\n`)
      return 1
    }
    const { migrateConfig } = await import('../../compiler/config/migrate.js')
    const upgraded = migrateConfig(files)
    if (!upgraded) {
      stderr.write(`${pc.red('error')} ${shown}/mint.json is not a JSON object; fix it and run again\n`)
      return 1
    }
    stdout.write(unifiedDiff(upgraded.path, upgraded.before, upgraded.after, upgraded.from ?? upgraded.path))
    for (const note of upgraded.notes) stderr.write(`${pc.dim('•')} ${note}\n`)
    if (this.dryRun) {
      stderr.write(`${pc.yellow('○')} docs.json would be written (dry run; nothing written)\n`)
      return 0
    }
    await writeFile(join(dir, upgraded.path), upgraded.after)
    if (upgraded.from) await rm(join(dir, upgraded.from))
    const args = this.dir ? ` ${this.dir}` : ''
    stderr.write(
      `${pc.green('✔')} mint.json upgraded to docs.json; run \`docsctl validate${args}\` for what is left, \`docsctl migrate${args}\` for pages' front matter\n`,
    )
    return 0
  }
}
