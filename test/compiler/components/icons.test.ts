import assert from 'node:assert/strict'
import { test } from 'node:test'
import { toHtml } from 'hast-util-to-html'
import { components, resolveIcon } from '../../../compiler/components/index.js'

test('icons resolve by name, honour iconType and fall back across the free styles', () => {
  assert.equal(resolveIcon('rocket')?.id, 'solid/rocket')
  assert.equal(resolveIcon('star', 'regular')?.id, 'regular/star')
  assert.equal(resolveIcon('github')?.id, 'brands/github')
  assert.equal(resolveIcon('github', 'brands')?.id, 'brands/github')
  // Pro-only styles fall back to solid.
  assert.equal(resolveIcon('rocket', 'duotone')?.id, 'solid/rocket')
  // Aliases find the canonical icon; a `fa-` prefix is tolerated.
  assert.equal(resolveIcon('info-circle')?.id, 'solid/circle-info')
  assert.equal(resolveIcon('fa-rocket')?.id, 'solid/rocket')
})

test('a name asked for again resolves as the first time, after the styles that lack it were searched', () => {
  for (let round = 0; round < 2; round++) {
    // Only Lucide draws this one: each Font Awesome style misses first.
    assert.equal(resolveIcon('brain-circuit')?.id, 'lucide/brain-circuit')
    assert.equal(resolveIcon('definitely-not-an-icon'), undefined)
    // Missing from the regular style, found in solid.
    assert.equal(resolveIcon('rocket', 'regular')?.id, 'solid/rocket')
  }
})

test('an icon is inline SVG that screen readers skip', () => {
  const icon = resolveIcon('rocket')
  assert.ok(icon)
  assert.match(
    toHtml(icon.svg),
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 512 512" class="d-icon-svg" aria-hidden="true" focusable="false" fill="currentColor"><path d="M/,
  )
})

test('unknown and malformed names resolve to nothing, without reaching outside the icon packages', () => {
  assert.equal(resolveIcon('definitely-not-an-icon'), undefined)
  assert.equal(resolveIcon('../../package'), undefined)
  assert.equal(resolveIcon(''), undefined)
  assert.equal(resolveIcon('Rocket Ship'), undefined)
})

test('every component of the spec and of the corpus sites is registered', () => {
  const expected = [
    'Accordion',
    'AccordionGroup',
    'Badge',
    'Callout',
    'Card',
    'CardGroup',
    'Check',
    'CodeGroup',
    'Column',
    'Columns',
    'Danger',
    'Expandable',
    'Frame',
    'Icon',
    'Info',
    'Installer',
    'Note',
    'ParamField',
    'ResponseField',
    'Snippet',
    'Step',
    'Steps',
    'Tab',
    'Tabs',
    'Tip',
    'Tooltip',
    'Tree',
    'Tree.File',
    'Tree.Folder',
    'TypeTable',
    'Update',
    'View',
    'Visibility',
    'Warning',
  ]
  for (const name of expected) assert.ok(components.has(name), `${name} is missing`)
})
