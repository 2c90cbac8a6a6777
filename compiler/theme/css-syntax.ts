/**
 * The tokens and block structure of a stylesheet, as CSS Syntax Level 3 defines them (§4, "Tokenization";
 * §5.4, where blocks begin and end). A stylesheet rewriter that copies any of an author's text must split
 * it exactly where a browser does: an unquoted `url(` swallows braces, `\{` is no brace, a `}` inside
 * parentheses closes nothing. Only what decides structure is told apart; numbers and dimensions are one
 * kind, and values are kept as source offsets.
 */

export type TokenType =
  | 'whitespace'
  | 'comment'
  | 'string'
  | 'bad-string'
  | 'url'
  | 'bad-url'
  | 'ident'
  | 'function'
  | 'at-keyword'
  | 'hash'
  | 'number'
  | 'delim'
  | 'cdo'
  | 'cdc'
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | ';'
  | ','
  | ':'

export interface Token {
  type: TokenType
  /** Offsets into the preprocessed text. */
  start: number
  end: number
  /** The unescaped name of an ident, function, at-keyword or hash; the character of a delim. */
  value: string
}

/** Newlines normalised and NUL replaced, as a browser does before tokenizing (§3.3); lengths change only at CRLF. */
export function preprocess(css: string): string {
  return css.replace(/\r\n?|\f/g, '\n').replace(/\0/g, '\uFFFD')
}

export function tokenize(css: string): Token[] {
  const tokens: Token[] = []
  let at = 0
  const code = (index: number): number => (index < css.length ? css.charCodeAt(index) : -1)

  const isNewline = (c: number) => c === 0x0a
  const isWhitespace = (c: number) => c === 0x0a || c === 0x09 || c === 0x20
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39
  const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
  const isIdentStart = (c: number) =>
    (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c >= 0x80
  const isIdent = (c: number) => isIdentStart(c) || isDigit(c) || c === 0x2d
  const isNonPrintable = (c: number) =>
    (c >= 0 && c <= 0x08) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f
  const validEscape = (index: number) => code(index) === 0x5c && !isNewline(code(index + 1))
  const startsIdent = (index: number): boolean => {
    const first = code(index)
    if (first === 0x2d) {
      const second = code(index + 1)
      return isIdentStart(second) || second === 0x2d || validEscape(index + 1)
    }
    if (isIdentStart(first)) return true
    return first === 0x5c && validEscape(index)
  }
  const startsNumber = (index: number): boolean => {
    const first = code(index)
    if (first === 0x2b || first === 0x2d) {
      const second = code(index + 1)
      return isDigit(second) || (second === 0x2e && isDigit(code(index + 2)))
    }
    if (first === 0x2e) return isDigit(code(index + 1))
    return isDigit(first)
  }
  /** Consumes the escape whose `\` is just before `at`; returns the code point it stands for. */
  const consumeEscape = (): string => {
    const first = code(at)
    if (first === -1) return '\uFFFD'
    if (isHex(first)) {
      let hex = ''
      while (hex.length < 6 && isHex(code(at))) hex += css[at++]
      if (isWhitespace(code(at))) at++
      const value = Number.parseInt(hex, 16)
      return value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)
        ? '\uFFFD'
        : String.fromCodePoint(value)
    }
    const char = String.fromCodePoint(css.codePointAt(at)!)
    at += char.length
    return char
  }
  const consumeIdentSequence = (): string => {
    let name = ''
    for (;;) {
      const c = code(at)
      if (isIdent(c)) {
        const char = String.fromCodePoint(css.codePointAt(at)!)
        name += char
        at += char.length
      } else if (validEscape(at)) {
        at++
        name += consumeEscape()
      } else return name
    }
  }
  const consumeNumber = () => {
    if (code(at) === 0x2b || code(at) === 0x2d) at++
    while (isDigit(code(at))) at++
    if (code(at) === 0x2e && isDigit(code(at + 1))) {
      at += 2
      while (isDigit(code(at))) at++
    }
    const e = code(at)
    if (e === 0x45 || e === 0x65) {
      const sign = code(at + 1) === 0x2b || code(at + 1) === 0x2d ? 1 : 0
      if (isDigit(code(at + 1 + sign))) {
        at += 1 + sign
        while (isDigit(code(at))) at++
      }
    }
    if (startsIdent(at)) consumeIdentSequence()
    else if (code(at) === 0x25) at++
  }
  const consumeBadUrlRemnants = () => {
    for (;;) {
      const c = code(at)
      if (c === -1) return
      if (c === 0x29) {
        at++
        return
      }
      if (validEscape(at)) {
        at++
        consumeEscape()
      } else at++
    }
  }
  /** After `url(` and its whitespace (§4.3.6). */
  const consumeUrl = (): TokenType => {
    while (isWhitespace(code(at))) at++
    for (;;) {
      const c = code(at)
      if (c === 0x29) {
        at++
        return 'url'
      }
      if (c === -1) return 'url'
      if (isWhitespace(c)) {
        while (isWhitespace(code(at))) at++
        if (code(at) === 0x29 || code(at) === -1) {
          if (code(at) === 0x29) at++
          return 'url'
        }
        consumeBadUrlRemnants()
        return 'bad-url'
      }
      if (c === 0x22 || c === 0x27 || c === 0x28 || isNonPrintable(c)) {
        consumeBadUrlRemnants()
        return 'bad-url'
      }
      if (c === 0x5c) {
        if (validEscape(at)) {
          at++
          consumeEscape()
          continue
        }
        consumeBadUrlRemnants()
        return 'bad-url'
      }
      at++
    }
  }
  const consumeIdentLike = (): { type: TokenType; value: string } => {
    const value = consumeIdentSequence()
    if (value.toLowerCase() === 'url' && code(at) === 0x28) {
      at++
      // `url( "x")` is a function taking a string; `url(x)` an unquoted URL token.
      let peek = at
      while (isWhitespace(code(peek)) && isWhitespace(code(peek + 1))) peek++
      const next = isWhitespace(code(peek)) ? code(peek + 1) : code(peek)
      if (next === 0x22 || next === 0x27) {
        at = peek
        return { type: 'function', value }
      }
      return { type: consumeUrl(), value }
    }
    if (code(at) === 0x28) {
      at++
      return { type: 'function', value }
    }
    return { type: 'ident', value }
  }
  const consumeString = (quote: number): TokenType => {
    for (;;) {
      const c = code(at)
      if (c === quote) {
        at++
        return 'string'
      }
      if (c === -1) return 'string'
      // A newline ends the string unconsumed: a bad string.
      if (isNewline(c)) return 'bad-string'
      if (c === 0x5c) {
        if (code(at + 1) === -1) at++
        else if (isNewline(code(at + 1))) at += 2
        else {
          at++
          consumeEscape()
        }
        continue
      }
      at++
    }
  }

  while (at < css.length) {
    const start = at
    const c = code(at)
    let type: TokenType
    let value = ''
    if (c === 0x2f && code(at + 1) === 0x2a) {
      const end = css.indexOf('*/', at + 2)
      at = end === -1 ? css.length : end + 2
      type = 'comment'
    } else if (isWhitespace(c)) {
      while (isWhitespace(code(at))) at++
      type = 'whitespace'
    } else if (c === 0x22 || c === 0x27) {
      at++
      type = consumeString(c)
    } else if (c === 0x23) {
      at++
      if (isIdent(code(at)) || validEscape(at)) {
        type = 'hash'
        value = consumeIdentSequence()
      } else {
        type = 'delim'
        value = '#'
      }
    } else if (c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      at++
      type = css[start] as TokenType
    } else if (c === 0x2c || c === 0x3a || c === 0x3b) {
      at++
      type = css[start] as TokenType
    } else if (c === 0x2b || c === 0x2e) {
      if (startsNumber(at)) {
        consumeNumber()
        type = 'number'
      } else {
        at++
        type = 'delim'
        value = css[start]!
      }
    } else if (c === 0x2d) {
      if (startsNumber(at)) {
        consumeNumber()
        type = 'number'
      } else if (code(at + 1) === 0x2d && code(at + 2) === 0x3e) {
        at += 3
        type = 'cdc'
      } else if (startsIdent(at)) {
        ;({ type, value } = consumeIdentLike())
      } else {
        at++
        type = 'delim'
        value = '-'
      }
    } else if (c === 0x3c && css.startsWith('!--', at + 1)) {
      at += 4
      type = 'cdo'
    } else if (c === 0x40) {
      at++
      if (startsIdent(at)) {
        type = 'at-keyword'
        value = consumeIdentSequence()
      } else {
        type = 'delim'
        value = '@'
      }
    } else if (c === 0x5c) {
      if (validEscape(at)) {
        ;({ type, value } = consumeIdentLike())
      } else {
        at++
        type = 'delim'
        value = '\\'
      }
    } else if (isDigit(c)) {
      consumeNumber()
      type = 'number'
    } else if (isIdentStart(c)) {
      ;({ type, value } = consumeIdentLike())
    } else {
      const char = String.fromCodePoint(css.codePointAt(at)!)
      at += char.length
      type = 'delim'
      value = char
    }
    tokens.push({ type, start, end: at, value })
  }
  return tokens
}

const CLOSER: Partial<Record<TokenType, TokenType>> = { '(': ')', function: ')', '[': ']', '{': '}' }

/** Whether the token opens a simple block or a function, whose contents run to its matching closer. */
export const opensBlock = (token: Token): boolean => CLOSER[token.type] !== undefined

/** Each opener's matching closer, found in one pass per token list. */
const closers = new WeakMap<readonly Token[], Int32Array>()

/**
 * The index of the token that closes the block opened at `open` (`tokens.length` when it never closes).
 * Only the matching closer counts: a `}` inside parentheses is part of them, as in a browser.
 */
export function blockEnd(tokens: readonly Token[], open: number): number {
  let ends = closers.get(tokens)
  if (!ends) {
    ends = matchBlocks(tokens)
    closers.set(tokens, ends)
  }
  return ends[open]!
}

/** A stack of open blocks: a closer ends the innermost block if it is that block's closer, else nothing. */
function matchBlocks(tokens: readonly Token[]): Int32Array {
  const ends = new Int32Array(tokens.length).fill(tokens.length)
  const open: number[] = []
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!
    const innermost = open.at(-1)
    if (innermost !== undefined && token.type === CLOSER[tokens[innermost]!.type]) {
      ends[innermost] = index
      open.pop()
    } else if (opensBlock(token)) open.push(index)
  }
  return ends
}

/** The index just past the component value at `index` (a whole block when one opens there). */
export function nextComponent(tokens: readonly Token[], index: number): number {
  return opensBlock(tokens[index]!) ? blockEnd(tokens, index) + 1 : index + 1
}

/** Whitespace and comments: nothing to a parser. */
export const isBlank = (token: Token | undefined): boolean =>
  token !== undefined && (token.type === 'whitespace' || token.type === 'comment')
