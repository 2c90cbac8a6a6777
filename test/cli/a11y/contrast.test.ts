import assert from 'node:assert/strict'
import { test } from 'node:test'
import { contrastProblems, contrastRatio, themeContrast } from '../../../cli/a11y/contrast.js'

test('contrast ratios follow WCAG 2: black on white is 21:1, #777 on white just fails AA', () => {
  assert.equal(contrastRatio('#000', '#ffffff'), 21)
  assert.equal(contrastRatio('#fff', '#fff'), 1)
  assert.equal(Math.round(contrastRatio('#777777', '#ffffff')! * 100) / 100, 4.48)
  assert.equal(contrastRatio('rebeccapurple', '#fff'), undefined)
})

test('a theme pair below 4.5:1 is an error at its declaration line, light and dark', () => {
  const css = [
    ':root {',
    '  --d-bg: #ffffff;',
    '  --d-fg: #17191c;',
    '  --d-fg-muted: #999999;',
    '}',
    '[data-theme="dark"] {',
    '  --d-bg: #0f1115;',
    '  --d-fg: #333333;',
    '}',
  ].join('\n')
  const results = themeContrast(css)
  const problems = contrastProblems('site.css', results)
  assert.deepEqual(
    problems.map(({ line, message }) => `${line} ${message}`),
    [
      '4 muted text (light): --d-fg-muted #999999 on --d-bg #ffffff is 2.84:1, below 4.5:1',
      '8 body text (dark): --d-fg #333333 on --d-bg #0f1115 is 1.49:1, below 4.5:1',
    ],
  )
  assert.ok(problems.every((problem) => problem.severity === 'error' && problem.rule === 'contrast'))
})

test('a ratio just under 4.5:1 is not rounded up to pass', () => {
  // #767676 on white is 4.54:1 (passes); #777777 is 4.478:1 (fails) and prints as 4.47:1.
  const css = ':root {\n  --d-bg: #ffffff;\n  --d-fg: #777777;\n}\n'
  const [problem] = contrastProblems('site.css', themeContrast(css))
  assert.match(problem?.message ?? '', /is 4\.47:1, below 4\.5:1$/)
})
