/**
 * Where the real-world corpus sites live: `DOCS_CORPUS`, else `../shared/corpus` beside this checkout,
 * else the workplace's copy (CI clones the repository elsewhere). Tests fail, never skip, without it.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fromPackageRoot } from '../compiler/assets.js'

const candidates = [join(fromPackageRoot(), '..', 'shared', 'corpus'), '/work/shared/corpus']

export const corpusRoot: string =
  process.env.DOCS_CORPUS ?? candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!

export const corpusSites = ['x402', 'rallly', 'cline', 'mem0', 'stagehand', 'pipecat'] as const
