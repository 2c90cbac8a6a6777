/** The tokenizer splits a stylesheet where a browser does (CSS Syntax Level 3). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { blockEnd, preprocess, tokenize } from '../../../compiler/theme/css-syntax.js'

const kinds = (css: string) =>
  tokenize(css)
    .filter((token) => token.type !== 'whitespace')
    .map((token) => (token.value ? `${token.type}:${token.value}` : token.type))

test('URLs, strings, comments and escapes hold braces that open no block', () => {
  assert.deepEqual(kinds('url(a{b}) url( "x{" ) "}" /* { */ \\{'), [
    'url:url',
    'function:url',
    'string',
    ')',
    'string',
    'comment',
    'ident:{',
  ])
  assert.deepEqual(kinds('url(a b) url(a"b)'), ['bad-url:url', 'bad-url:url'])
  assert.deepEqual(kinds('"open\n}'), ['bad-string', '}'])
})

test('names are unescaped, and numbers are not names', () => {
  assert.deepEqual(kinds('@\\73 cope @-moz-document #\\66 oo .5em -x --y -->'), [
    'at-keyword:scope',
    'at-keyword:-moz-document',
    'hash:foo',
    'number',
    'ident:-x',
    'ident:--y',
    'cdc',
  ])
  assert.equal(preprocess('a\r\nb\rc\fd\0'), 'a\nb\nc\nd\uFFFD')
})

test('only the matching closer ends a block', () => {
  const tokens = tokenize('{ ( } ) } x')
  assert.equal(tokens[blockEnd(tokens, 0)]!.start, 8, 'the } inside parentheses closes nothing')
  const open = tokenize('( [ )')
  assert.equal(blockEnd(open, 0), open.length, 'a block left open runs to the end')
})
