import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createHighlighter as createShiki } from 'shiki'
import { createSeparateHighlighter, THEMES } from '../../../compiler/highlight/index.js'
import { PairedTokenizer, type TextmateGrammar } from '../../../compiler/highlight/paired-themes.js'

/** Code whose scopes nest deeply, embed other languages, and style text (bold, italic, headings). */
const samples: [string, string][] = [
  [
    'ts',
    'export async function handler(request: Request): Promise<Response> {\n  const body = await request.json() as { id: number }\n  return Response.json({ ok: true, id: body.id, at: String(new Date()), tag: `v1` })\n}',
  ],
  ['tsx', 'export const Card = ({ title }: { title: string }) => <div className="card">{title}</div>'],
  [
    'python',
    '@dataclass\nclass Item:\n    name: str = "widget"\n    def total(self, *args, **kw) -> int:\n        return sum(args)  # comment',
  ],
  [
    'bash',
    'curl -X POST https://api.example.com/v1/items \\\n  -H "Authorization: Bearer $TOKEN" -d \'{"n": 1}\' | jq .id',
  ],
  ['json', '{\n  "name": "widget",\n  "tags": ["blue", "small"],\n  "price": 12.5,\n  "ok": true\n}'],
  ['yaml', 'service:\n  name: api # the name\n  replicas: 3\n  env:\n    - LOG_LEVEL=info'],
  ['markdown', '# Title\n\n**bold** and _italic_ and `code`\n\n```js\nconst x = 1\n```\n\n> quote'],
  [
    'html',
    '<style>body { color: red }</style>\n<script>const a = 1 < 2</script>\n<p class="x">Hi &amp; bye</p>',
  ],
  ['diff', '--- a/file\n+++ b/file\n@@ -1,2 +1,2 @@\n-old line\n+new line'],
  [
    'go',
    'func Sum(values []int) (total int) {\n\tfor _, v := range values {\n\t\ttotal += v\n\t}\n\treturn\n}',
  ],
  [
    'rust',
    'fn main() {\n    let words: Vec<&str> = "a b c".split(\' \').collect();\n    println!("{}", words.len());\n}',
  ],
]

test('one tokenisation for both themes gives exactly the HTML of two', async (t) => {
  const twoPasses = await createSeparateHighlighter({ sharedTokenization: false })
  const shared = await createSeparateHighlighter({ sharedTokenization: true })
  for (const [lang, code] of samples) {
    const expected = await twoPasses.highlight(code, lang)
    assert.ok(expected, `${lang} is highlighted`)
    assert.deepEqual(await shared.highlight(code, lang), expected, lang)
  }
  t.diagnostic(`${samples.length} languages compared`)
})

test('the dark pass reads the light pass tokens instead of tokenising again', async () => {
  const shiki = await createShiki({ themes: [THEMES.light, THEMES.dark], langs: ['python'] })
  const internal = shiki.getInternalContext()
  const grammar = internal.getLanguage('python') as unknown as TextmateGrammar
  let tokenized = 0
  const original = grammar.tokenizeLine2.bind(grammar)
  grammar.tokenizeLine2 = (line, state, timeLimit) => {
    tokenized++
    return original(line, state, timeLimit)
  }
  const code = samples.find(([lang]) => lang === 'python')![1]
  const lines = code.split('\n').length
  const options = { lang: 'python', themes: THEMES, defaultColor: false as const }
  const expected = shiki.codeToHast(code, options)
  assert.equal(tokenized, 2 * lines, 'shiki alone tokenises every line once per theme')

  const registry = grammar.themeProvider as { _theme: unknown }
  internal.setTheme(THEMES.light)
  const light = registry._theme
  internal.setTheme(THEMES.dark)
  const paired = new PairedTokenizer()
  paired.setThemes(light, registry._theme)
  paired.prepare(grammar)
  tokenized = 0
  assert.deepEqual(
    paired.during(() => shiki.codeToHast(code, options)),
    expected,
  )
  assert.equal(tokenized, lines, 'each line once')
  assert.equal(paired.disabled, false)
})

/** Request samples of one API: the same lines but for the method, path and body, as generated pages have. */
const requestSamples = (method: string, path: string): [string, string][] => [
  [
    'bash',
    `curl --request ${method} \\\n  --url https://api.example.com${path} \\\n  --header 'Authorization: Bearer <token>' \\\n  --header 'Content-Type: application/json' \\\n  --data '{"name": "widget"}'`,
  ],
  [
    'javascript',
    `const response = await fetch("https://api.example.com${path}", {\n  method: "${method}",\n  headers: { Authorization: "Bearer <token>" },\n  body: JSON.stringify({ name: "widget" })\n})\nconsole.log(await response.json())`,
  ],
  [
    'python',
    `import requests\n\nurl = "https://api.example.com${path}"\nresponse = requests.request("${method}", url, json={"name": "widget"})\nprint(response.json())`,
  ],
  [
    'go',
    `package main\n\nfunc main() {\n\treq, _ := http.NewRequest("${method}", "https://api.example.com${path}", nil)\n\tres, _ := http.DefaultClient.Do(req)\n\tdefer res.Body.Close()\n}`,
  ],
]

test('lines tokenised by earlier blocks are reused, with the HTML unchanged', async (t) => {
  const twoPasses = await createSeparateHighlighter({ sharedTokenization: false })
  const shared = await createSeparateHighlighter({ sharedTokenization: true })
  const blocks = ['GET', 'POST', 'PATCH', 'DELETE'].flatMap((method, index) =>
    requestSamples(method, `/widgets${index}/{id}`),
  )
  for (const [lang, code] of [...blocks, ...samples]) {
    const expected = await twoPasses.highlight(code, lang)
    assert.ok(expected, `${lang} is highlighted`)
    assert.deepEqual(await shared.highlight(code, lang), expected, `${lang}: ${code.split('\n')[0]}`)
  }
  t.diagnostic(`${blocks.length} request samples compared`)
})

test('a block differing from an earlier one only in some lines tokenises only those lines', async () => {
  const shiki = await createShiki({ themes: [THEMES.light, THEMES.dark], langs: ['python'] })
  const internal = shiki.getInternalContext()
  const grammar = internal.getLanguage('python') as unknown as TextmateGrammar
  let tokenized = 0
  const original = grammar.tokenizeLine2.bind(grammar)
  grammar.tokenizeLine2 = (line, state, timeLimit) => {
    tokenized++
    return original(line, state, timeLimit)
  }
  const registry = grammar.themeProvider as { _theme: unknown }
  internal.setTheme(THEMES.light)
  const light = registry._theme
  internal.setTheme(THEMES.dark)
  const paired = new PairedTokenizer()
  paired.setThemes(light, registry._theme)
  paired.prepare(grammar)
  const options = { lang: 'python', themes: THEMES, defaultColor: false as const }
  const [first, second] = ['GET', 'DELETE'].map((method) => requestSamples(method, '/widgets/{id}')[2]![1])
  paired.during(() => shiki.codeToHast(first!, options))
  assert.ok(tokenized >= 4, 'the first block is tokenised')
  tokenized = 0
  paired.during(() => shiki.codeToHast(second!, options))
  assert.equal(tokenized, 1, 'only the line naming the method')
})
