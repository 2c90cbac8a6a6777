import assert from 'node:assert/strict'
import { test } from 'node:test'
import { issueMessage, validationIssues } from '../../server/validation-issues.js'

test('a schema failure says what to fix in words and names its field', () => {
  const failure = (keyword: string, params: Record<string, unknown>, instancePath = '/name') => ({
    keyword,
    instancePath,
    params,
    message: 'ajv text',
  })
  assert.equal(issueMessage(failure('minLength', { limit: 1 })), 'must not be empty')
  assert.equal(issueMessage(failure('minLength', { limit: 3 })), 'must be at least 3 characters')
  assert.equal(issueMessage(failure('maxLength', { limit: 1 })), 'must be at most 1 character')
  assert.equal(issueMessage(failure('pattern', { pattern: '\\S' })), 'must not be blank')
  assert.equal(issueMessage(failure('type', { type: 'integer' })), 'must be an integer')
  assert.equal(issueMessage(failure('type', { type: 'string' })), 'must be a string')
  assert.equal(issueMessage(failure('enum', { allowedValues: ['a', 'b'] })), 'must be one of a, b')
  assert.equal(issueMessage(failure('multipleOf', { multipleOf: 2 })), 'ajv text')
  assert.deepEqual(
    validationIssues(
      [
        failure('required', { missingProperty: 'slug' }, ''),
        failure('additionalProperties', { additionalProperty: 'extra' }, ''),
      ],
      'body',
    ),
    [
      { path: 'body/slug', message: 'is required' },
      { path: 'body/extra', message: 'unknown property' },
    ],
  )
})

test('one issue per field: the first the schema found', () => {
  const empty = { keyword: 'minLength', instancePath: '/name', params: { limit: 1 } }
  const blank = { keyword: 'pattern', instancePath: '/name', params: { pattern: '\\S' } }
  assert.deepEqual(validationIssues([empty, blank], 'body'), [
    { path: 'body/name', message: 'must not be empty' },
  ])
})
