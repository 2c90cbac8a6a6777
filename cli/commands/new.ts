import { copyFile, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { cancel, confirm, intro, isCancel, outro, select, text } from '@clack/prompts'
import { Command, Option } from 'clipanion'
import pc from 'picocolors'
import { fromPackageRoot } from '../../compiler/assets.js'
import { slugify, slugProblem, titleCase } from '../../compiler/config/slug.js'
import { displayPath } from '../../lib/site-dir.js'

export const TEMPLATES = ['minimal', 'starter'] as const
export type TemplateName = (typeof TEMPLATES)[number]

/** Files whose template name differs from the written name (npm drops `.gitignore` from packages). */
const renamed: Record<string, string> = { gitignore: '.gitignore' }
/** Written beside the template's files: a link to CLAUDE.md, so every coding agent finds the same notes. */
const AGENTS_FILE = 'AGENTS.md'
/** Entries that do not make a directory "not empty". */
const harmless = new Set(['.git', '.DS_Store', 'Thumbs.db'])

class NewFailure extends Error {}

export class NewCommand extends Command {
  static override paths = [['new']]
  static override usage = Command.Usage({
    description: 'Create a docs site from a template',
    details: `
      Writes docs.json and a first page (template \`minimal\`), or a fuller site with logo, favicon,
      images, a README and notes for coding agents (template \`starter\`).

      Without [directory]: an empty current directory is used as is; a non-empty one asks whether to
      create a \`docs/\` subdirectory or scaffold in place. With --yes, or when not run in a terminal,
      it uses \`docs/\`. It never overwrites a file, and a non-empty directory needs interactive
      confirmation. The slug is asked for (interactive) or derived from the directory name; the
      display name defaults to the slug in title case. The "$schema" URL written into docs.json is
      DOCSCTL_SCHEMA_URL when set.
    `,
    examples: [
      ['Create a site, answering prompts', 'docsctl new'],
      ['Create ./docs without prompts', 'docsctl new --yes'],
      [
        'Create the starter site in ./handbook',
        'docsctl new handbook --template starter --slug acme-handbook',
      ],
      ['Set the display name', 'docsctl new docs --slug acme --display-name "Acme Developer Docs" --yes'],
    ],
  })

  directory = Option.String({ required: false, name: 'directory' })
  slug = Option.String('--slug', {
    description: 'Project slug: the site subdomain (3-63 characters a-z, 0-9, -)',
  })
  name = Option.String('--name', { description: 'Deprecated alias of --slug', hidden: true })
  displayName = Option.String('--display-name', {
    description: 'Site name shown in the header (default: the slug in title case)',
  })
  template = Option.String('--template', 'minimal', { description: 'Template: minimal (default) or starter' })
  yes = Option.Boolean('--yes', false, {
    description: 'Do not prompt: use defaults for everything not given',
  })

  override async execute(): Promise<number> {
    try {
      return await this.scaffold()
    } catch (error) {
      if (!(error instanceof NewFailure)) throw error
      this.context.stderr.write(`${pc.red('error')} ${error.message}\n`)
      return 1
    }
  }

  private async scaffold(): Promise<number> {
    const { stdout, stderr } = this.context
    if (this.name !== undefined) stderr.write(`${pc.yellow('warning')} --name is deprecated; use --slug\n`)
    if (this.slug !== undefined && this.name !== undefined && this.slug !== this.name) {
      throw new NewFailure(`--slug "${this.slug}" and --name "${this.name}" disagree; pass only --slug`)
    }
    const template = this.template as TemplateName
    if (!TEMPLATES.includes(template)) {
      throw new NewFailure(`unknown template "${this.template}"; expected "minimal" or "starter"`)
    }
    const givenSlug = this.slug ?? this.name
    if (givenSlug !== undefined) {
      const problem = slugProblem(givenSlug)
      if (problem) throw new NewFailure(`slug "${givenSlug}" ${problem}${suggest(givenSlug)}`)
    }
    const interactive = !this.yes && Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY)
    if (interactive) intro(pc.bold('docsctl new'))

    const cwd = process.cwd()
    const files = await templateFiles(template)
    let target: string
    let placeConfirmed = false
    if (this.directory !== undefined) target = resolve(cwd, this.directory)
    else if (await isEmptyDirectory(cwd)) target = cwd
    else if (interactive) {
      const choice = await select({
        message: `${displayPath(cwd, dirname(cwd))} is not empty. Where should the docs go?`,
        options: [
          { value: 'subdirectory', label: 'In a new docs/ subdirectory', hint: 'recommended' },
          { value: 'here', label: 'Here, beside the existing files' },
        ],
      })
      if (isCancel(choice)) return cancelled()
      target = choice === 'here' ? cwd : resolve(cwd, 'docs')
      placeConfirmed = choice === 'here'
    } else target = resolve(cwd, 'docs')
    const shown = displayPath(target, cwd)

    const existing = await existingFiles(target, [
      ...files.map((file) => file.output),
      ...agentsFiles(template),
    ])
    if (existing.length > 0) {
      throw new NewFailure(
        `${shown} already holds ${existing.join(', ')}; docsctl new never overwrites files. Choose another directory.`,
      )
    }
    if (!placeConfirmed && !(await isEmptyDirectory(target))) {
      if (!interactive) {
        throw new NewFailure(
          `${shown} is not empty; pass an empty or new directory, or run in a terminal to confirm`,
        )
      }
      const proceed = await confirm({
        message: `${shown} is not empty. Scaffold into it anyway?`,
        initialValue: false,
      })
      if (isCancel(proceed) || !proceed) return cancelled()
    }

    let slug = givenSlug ?? deriveSlug(target)
    if (givenSlug === undefined && interactive) {
      const answer = await text({
        message: 'Project slug (the subdomain of your site)',
        initialValue: slug,
        validate: (value) => {
          const problem = slugProblem(value ?? '')
          return problem ? `The slug ${problem}` : undefined
        },
      })
      if (isCancel(answer)) return cancelled()
      slug = answer
    }
    const name = this.displayName ?? titleCase(slug)
    const { DEFAULT_SCHEMA_URL } = await import('../../compiler/config/index.js')
    const schemaUrl = process.env.DOCSCTL_SCHEMA_URL || DEFAULT_SCHEMA_URL

    const written: string[] = []
    for (const file of files) {
      const destination = join(target, file.output)
      await mkdir(dirname(destination), { recursive: true })
      await writeFile(destination, render(file, { name, slug, schemaUrl }), { flag: 'wx' })
      written.push(file.output)
    }
    if (template === 'starter') {
      const link = await linkAgentsFile(target)
      written.push(link === 'symlink' ? `${AGENTS_FILE} -> CLAUDE.md` : AGENTS_FILE)
    }
    written.sort()

    const lines = [
      `Created ${name} (${slug}) in ${shown} from the ${template} template:`,
      ...written.map((file) => `  ${file}`),
      '',
      'Next:',
      ...(target === cwd ? [] : [`  cd ${relative(cwd, target) || '.'}`]),
      '  docsctl validate   check docs.json and the pages',
      '  docsctl dev        preview the site with live reload',
      '  docsctl push       deploy it',
    ]
    if (interactive) outro(lines.join('\n'))
    else stdout.write(`${lines.join('\n')}\n`)
    return 0
  }
}

function cancelled(): number {
  cancel('Cancelled; nothing was written.')
  return 1
}

const suggest = (slug: string): string => {
  const fixed = slugify(slug).replace(/-{2,}/g, '-')
  return fixed !== slug && !slugProblem(fixed) ? `; try "${fixed}"` : ''
}

/** `~/acme/docs` → `acme-docs`; `~/handbook` → `handbook`; always a valid slug. */
export function deriveSlug(target: string): string {
  const base = basename(target)
  const parent = basename(dirname(target))
  const words = base === 'docs' || base === 'doc' ? `${parent} docs` : base
  let slug = slugify(words).replace(/-{2,}/g, '-')
  if (slug.length < 3) slug = slug ? `${slug}-docs` : 'my-docs'
  return slug
}

interface TemplateFile {
  /** Path inside the template folder. */
  source: string
  /** Path written in the target. */
  output: string
  bytes: Buffer
}

async function templateFiles(template: TemplateName): Promise<TemplateFile[]> {
  const root = fromPackageRoot('fixtures', 'templates', template)
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files: TemplateFile[] = []
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const source = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/')
    const output = renamed[source] ?? source
    files.push({ source, output, bytes: await readFile(join(root, source)) })
  }
  return files.sort((a, b) => (a.output < b.output ? -1 : 1))
}

const agentsFiles = (template: TemplateName): string[] => (template === 'starter' ? [AGENTS_FILE] : [])

/** Room for the starter logo's mark and the name beside it (16 px semibold is about 10 px a character). */
const logoWidth = (name: string): string => String(36 + Math.ceil([...name].length * 10) + 4)

/** Fills `{{name}}`, `{{slug}}`, `{{schemaUrl}}` (and `{{logoWidth}}`), escaped for the file's syntax. */
function render(file: TemplateFile, values: Record<'name' | 'slug' | 'schemaUrl', string>): Buffer {
  if (!/\.(json|mdx?|txt|svg)$/.test(file.output)) return file.bytes
  const escapeFor = (value: string): string => {
    if (file.output.endsWith('.json')) return JSON.stringify(value).slice(1, -1)
    if (file.output.endsWith('.svg')) return value.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)
    // MDX reads `{` and `<` as code and tags; entities keep a name like "A<B>" plain text.
    if (file.output.endsWith('.mdx')) return value.replace(/[{}<>]/g, (char) => `&#${char.charCodeAt(0)};`)
    return value
  }
  const text = file.bytes
    .toString('utf8')
    .replace(/\{\{(name|slug|schemaUrl)\}\}/g, (_, key: keyof typeof values) => escapeFor(values[key]))
    .replace(/\{\{logoWidth\}\}/g, logoWidth(values.name))
  return Buffer.from(text, 'utf8')
}

/** AGENTS.md as a relative symlink to CLAUDE.md; a copy where symlinks are not allowed (Windows). */
async function linkAgentsFile(target: string): Promise<'symlink' | 'copy'> {
  try {
    await symlink('CLAUDE.md', join(target, AGENTS_FILE))
    return 'symlink'
  } catch {
    await copyFile(join(target, 'CLAUDE.md'), join(target, AGENTS_FILE))
    return 'copy'
  }
}

async function isEmptyDirectory(dir: string): Promise<boolean> {
  try {
    const entries = await readdir(dir)
    return entries.every((entry) => harmless.has(entry))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw new NewFailure(`${dir} is a file, not a directory`)
    throw error
  }
}

async function existingFiles(target: string, outputs: string[]): Promise<string[]> {
  const found: string[] = []
  for (const output of outputs) {
    try {
      await lstat(join(target, output))
      found.push(output)
    } catch {
      // Absent: nothing to protect.
    }
  }
  return found
}
