/** A reader event's shape: control characters are refused with the field named, a comment keeps its lines. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseReaderEvent } from '../../../server/insights/event.js'

const parse = (event: unknown) => parseReaderEvent(Buffer.from(JSON.stringify(event)))

test('a feedback comment keeps its tabs and line breaks', () => {
  const comment = 'Step 3 fails:\r\n\tpermission denied\n日本語 🙂'
  assert.deepEqual(parse({ type: 'feedback', path: 'guide/', helpful: false, comment }), {
    event: { type: 'feedback', path: 'guide/', helpful: false, comment },
  })
})

test('control characters in a query, a path or a comment are refused, naming the field', () => {
  const path = 'must be a path within the site: no leading slash, spaces, ?, # or control characters'
  const text = 'must not contain control characters'
  const cases: [unknown, Record<string, string>][] = [
    [{ type: 'search', query: 'setup\u0000', results: 0 }, { 'body/query': text }],
    [{ type: 'search', query: 'two\nlines', results: 0 }, { 'body/query': text }],
    [
      { type: 'search', query: 'bell\u0007', results: 1, opened: 'guide/\u001b/' },
      { 'body/query': text, 'body/opened': path },
    ],
    [{ type: 'not-found', path: 'guide/\u0000/' }, { 'body/path': path }],
    [{ type: 'view', path: 'guide/\u007f/', screen: 'phone' }, { 'body/path': path }],
    [{ type: 'feedback', path: '', helpful: true, comment: 'fine\u0000' }, { 'body/comment': text }],
    [{ type: 'feedback', path: '', helpful: true, comment: 'form\u000cfeed' }, { 'body/comment': text }],
  ]
  for (const [event, issues] of cases) {
    const parsed = parse(event)
    assert.ok('error' in parsed && parsed.issues, JSON.stringify(event))
    for (const [field, message] of Object.entries(issues))
      assert.ok(
        parsed.issues.some((issue) => issue.path === field && issue.message === message),
        `${JSON.stringify(event)}: ${JSON.stringify(parsed.issues)}`,
      )
  }
})
