import assert from 'node:assert/strict'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { cacheRoot, checkCacheFile, loadCheckCache, saveCheckCache } from '../../../cli/push/check-cache.js'

test('the cache folder is DOCSCTL_CACHE_DIR, else $XDG_CACHE_HOME/docsctl, else ~/.cache/docsctl', () => {
  assert.equal(cacheRoot({ DOCSCTL_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' }), '/c')
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/x' }), '/x/docsctl')
  assert.match(cacheRoot({}), /\.cache\/docsctl$/)
})

test('each site folder has its own cache file, the same for the same folder', () => {
  const env = { DOCSCTL_CACHE_DIR: '/c' }
  assert.equal(checkCacheFile('/sites/a', env), checkCacheFile('/sites/a/', env))
  assert.notEqual(checkCacheFile('/sites/a', env), checkCacheFile('/sites/b', env))
  assert.match(checkCacheFile('/sites/a', env), /^\/c\/checks\/[0-9a-f]{32}\.json$/)
})

test('a saved cache loads back, in a 0700 folder and a 0600 file; a damaged one loads as none', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'check-cache-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  const file = checkCacheFile('/sites/a', { DOCSCTL_CACHE_DIR: root })
  assert.equal(await loadCheckCache(file), undefined)
  const cache = { compilerVersion: '1.0.0+abc', entries: { key: { page: { html: '<p>x</p>' } } } }
  assert.equal(await saveCheckCache(file, cache), undefined)
  assert.deepEqual(await loadCheckCache(file), cache)
  assert.equal((await stat(join(root, 'checks'))).mode & 0o777, 0o700)
  assert.equal((await stat(file)).mode & 0o777, 0o600)

  await writeFile(file, '{"compilerVersion": 1')
  assert.equal(await loadCheckCache(file), undefined)
})

test('a cache that cannot be written is reported, not thrown', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'check-cache-'))
  t.after(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'checks'), 'a file where the folder should be')
  const file = checkCacheFile('/sites/a', { DOCSCTL_CACHE_DIR: root })
  assert.match((await saveCheckCache(file, { compilerVersion: 'v', entries: {} })) ?? '', /^E[A-Z]+$/)
})
