/**
 * `npm run settings:docs`: writes docs/server-settings.md from the settings table
 * (server/settings/reference.ts). test/server/settings/reference.test.ts fails while the committed file
 * differs from what this writes.
 */
import { writeFileSync } from 'node:fs'
import { fromPackageRoot } from '../lib/package-root.js'
import { referencePath, settingsReference } from '../server/settings/reference.js'

writeFileSync(fromPackageRoot(referencePath), settingsReference())
console.log(`server/settings/table.ts → ${referencePath}`)
