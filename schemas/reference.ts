/**
 * The manual's references of docs.json and page front matter, generated from their JSON Schemas: each
 * key with its path, type and description, the top-level keys first, then each shared definition.
 * `npm run docs:generate` writes them; test/docs/references.test.ts fails while a committed page
 * differs or a schema field has no entry.
 */
import { readFileSync } from 'node:fs'
import { mdxCell, mdxText } from '../lib/mdx-text.js'
import { fromPackageRoot } from '../lib/package-root.js'

/** The part of JSON Schema these schemas use. */
export interface SchemaNode {
  description?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  $ref?: string
  items?: SchemaNode
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  properties?: Record<string, SchemaNode>
  required?: string[]
  additionalProperties?: boolean | SchemaNode
  definitions?: Record<string, SchemaNode>
}

/** One schema, the page made from it, and how the page introduces it. */
export interface SchemaReference {
  schema: string
  page: string
  title: string
  description: string
  introduction: string
}

export const schemaReferences: readonly SchemaReference[] = [
  {
    schema: 'schemas/docs.schema.json',
    page: 'docs/reference/docs-json.mdx',
    title: 'docs.json reference',
    description:
      'Every key of docs.json with its type and meaning, generated from the JSON Schema that validates it.',
    introduction:
      '`docs.json` at the root of the docs folder describes the site. `docsctl validate` checks it against this schema strictly (an unknown key is an error, with its line and a likely fix); a deployment reads it leniently. Point `"$schema"` at `/schemas/docs.schema.json` on your server for completion in an editor. [Navigation](/writing/navigation) shows how the parts fit together.',
  },
  {
    schema: 'schemas/frontmatter.schema.json',
    page: 'docs/reference/front-matter.mdx',
    title: 'Front matter reference',
    description:
      "Every key of a page's front matter with its type and meaning, generated from its JSON Schema.",
    introduction:
      'Front matter is the YAML block at the top of a page, between `---` lines. `docsctl validate` checks it against this schema.',
  },
]

export const readSchema = (path: string): SchemaNode =>
  JSON.parse(readFileSync(fromPackageRoot(path), 'utf8')) as SchemaNode

/** A definition's heading anchor, as the page's slugger makes it from the name. */
const anchor = (name: string): string => name.toLowerCase()

const definitionName = (ref: string): string => ref.replace(/^#\/(definitions|\$defs)\//, '')

/** A schema's type in words: a link for a definition, alternatives joined by "or". */
function typeOf(node: SchemaNode): string {
  if (node.$ref) {
    const name = definitionName(node.$ref)
    return `[${name}](#${anchor(name)})`
  }
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(', ')
  const alternatives = node.anyOf ?? node.oneOf
  if (alternatives) return [...new Set(alternatives.map(typeOf))].join(' or ')
  const types = [node.type ?? (node.properties ? 'object' : 'any')].flat()
  return types
    .map((type) => (type === 'array' && node.items ? `array of ${typeOf(node.items)}` : type))
    .join(' or ')
}

interface Row {
  path: string
  type: string
  required: boolean
  description: string
}

/** The rows of a node's properties, and of the objects nested inline in them, by dotted path. */
function rows(node: SchemaNode, prefix: string, definitions: Definitions): Row[] {
  const found: Row[] = []
  for (const branch of [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    for (const [key, child] of Object.entries(branch.properties ?? {})) {
      const path = `${prefix}${key}`
      found.push({
        path,
        type: typeOf(child),
        required: branch.required?.includes(key) ?? false,
        description: describe(child, definitions),
      })
      found.push(...nested(child, path, definitions))
    }
  }
  return found
}

/** An inline object (or array of objects, or alternatives holding one) below a property. */
function nested(child: SchemaNode, path: string, definitions: Definitions): Row[] {
  if (child.$ref) return []
  if (child.items && !child.items.$ref) return rows(child.items, `${path}[].`, definitions)
  return rows(child, `${path}.`, definitions)
}

type Definitions = Record<string, SchemaNode>

/** A property's description: its own, else its definition's, else its first described alternative. */
function describe(node: SchemaNode, definitions: Definitions): string {
  if (node.description) return node.description
  if (node.$ref) return describe(definitions[definitionName(node.$ref)] ?? {}, definitions)
  return describedAlternative(node)
}

/** When a property has no description of its own, its first alternative that has one. */
const describedAlternative = (node: SchemaNode): string =>
  (node.anyOf ?? node.oneOf ?? []).find((alternative) => alternative.description)?.description ?? ''

function table(found: Row[]): string[] {
  return [
    '| Key | Type | Description |',
    '| --- | --- | --- |',
    ...found.map(
      (row) =>
        `| \`${row.path}\`${row.required ? ' (required)' : ''} | ${row.type.replaceAll('|', '\\|')} | ${mdxCell(row.description)} |`,
    ),
  ]
}

export function schemaReference(reference: SchemaReference): string {
  const schema = readSchema(reference.schema)
  const lines = [
    '---',
    `title: ${reference.title}`,
    `description: ${JSON.stringify(reference.description)}`,
    '---',
    '',
    `{/* Generated from ${reference.schema} by \`npm run docs:generate\`; edit the schema, not this file. */}`,
    '',
    reference.introduction,
    '',
  ]
  if (schema.description) lines.push(mdxText(schema.description), '')
  const definitions = schema.definitions ?? {}
  lines.push('## Keys', '', ...table(rows(schema, '', definitions)))
  for (const [name, definition] of Object.entries(definitions)) {
    lines.push('', `## ${name}`, '')
    const description = definition.description ?? describedAlternative(definition)
    if (description) lines.push(mdxText(description), '')
    lines.push(`Type: ${typeOf({ ...definition, description: '' }).replaceAll('|', '\\|')}.`)
    const found = rows(definition, '', definitions)
    if (definition.items) found.push(...nested(definition.items, '[]', definitions))
    if (found.length > 0) lines.push('', ...table(found))
  }
  return `${lines.join('\n')}\n`
}
