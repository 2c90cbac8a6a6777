import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fromPackageRoot } from '../../../compiler/assets.js'

async function sourcesUnder(folder: string): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(fromPackageRoot(folder), { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
  return Promise.all(
    files.map(async (path) => ({
      file: relative(fromPackageRoot(), path),
      text: await readFile(path, 'utf8'),
    })),
  )
}

test('routes never run SQL nor import a migration: data goes through app.repos', async () => {
  const offences: string[] = []
  for (const { file, text } of await sourcesUnder('server/routes')) {
    for (const pattern of [
      /from 'kysely'/,
      /db\/migrations\//,
      /\bsql`/,
      /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/,
    ]) {
      if (pattern.test(text)) offences.push(`${file}: ${pattern}`)
    }
  }
  assert.deepEqual(offences, [])
})

test('the server imports nothing from cli/', async () => {
  const offences = (await sourcesUnder('server'))
    .filter(({ text }) => /from '(\.\.\/)+cli\//.test(text))
    .map(({ file }) => file)
  assert.deepEqual(offences, [])
})
