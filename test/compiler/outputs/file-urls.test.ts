import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileUrl, withFileUrls } from '../../../compiler/outputs/file-urls.js'

test('a relative link to a folder names its index.html; anything else is left alone', () => {
  assert.equal(fileUrl('guide/setup/'), 'guide/setup/index.html')
  assert.equal(fileUrl('../guide/setup/#step-2'), '../guide/setup/index.html#step-2')
  assert.equal(fileUrl('./'), './index.html')
  assert.equal(fileUrl('../../'), '../../index.html')
  assert.equal(fileUrl('..'), '../index.html')
  assert.equal(fileUrl('.'), './index.html')
  assert.equal(fileUrl('guide/?q=1'), 'guide/index.html?q=1')
  for (const unchanged of [
    '',
    '#top',
    '_assets/site.css',
    '../images/logo.svg',
    'llms.txt',
    'https://example.com/docs/',
    '//cdn.example.com/',
    'mailto:ada@example.com',
    '/absolute/',
  ])
    assert.equal(fileUrl(unchanged), unchanged)
})

test('every href of a built page and a redirect page’s target', () => {
  assert.equal(
    withFileUrls(
      '<a class="d-logo" href="../../">Acme</a><link rel="stylesheet" href="../../_assets/site.css"><a href="../quickstart/#run">Run</a><a href="https://acme.dev/">Site</a>',
    ),
    '<a class="d-logo" href="../../index.html">Acme</a><link rel="stylesheet" href="../../_assets/site.css"><a href="../quickstart/index.html#run">Run</a><a href="https://acme.dev/">Site</a>',
  )
  assert.equal(
    withFileUrls('<meta http-equiv="refresh" content="0; url=../new-page/"><a href="../new-page/">moved</a>'),
    '<meta http-equiv="refresh" content="0; url=../new-page/index.html"><a href="../new-page/index.html">moved</a>',
  )
})
