/**
 * Secrets scan: everything the other suites produced (server logs, API responses, CLI output) holds none
 * of the secrets they created (session tokens, deploy keys), whole or as their secret part after a
 * prefix. Runs last, over `evidence`.
 */
import { evidence } from './evidence.js'
import { Cases, type Suite } from './suite.js'

/** The forms a secret could leak in: itself, and its part after a `dk_`/`dt_`-style prefix or a dot. */
function formsOf(secret: string): string[] {
  const forms = new Set([secret])
  const tail = secret.replace(/^[a-z]+_/, '')
  if (tail.length >= 16) forms.add(tail)
  for (const part of secret.split('.')) if (part.length >= 16) forms.add(part)
  return [...forms]
}

export const secretsScan: Suite = {
  name: 'secrets scan',
  async run() {
    const cases = new Cases()
    let bytes = 0
    for (const output of evidence.outputs) bytes += output.text.length
    for (const [secret, kind] of evidence.secrets) {
      const forms = formsOf(secret)
      for (const output of evidence.outputs) {
        const leaked = forms.find((form) => output.text.includes(form))
        cases.check(
          leaked === undefined,
          () => `a ${kind} (${secret.slice(0, 6)}…) appears in ${output.source}`,
        )
      }
    }
    if (evidence.secrets.size === 0 && evidence.outputs.length > 0)
      cases.fail('the suites recorded output but no secret: nothing was scanned for')
    return cases.report({
      secrets: evidence.secrets.size,
      outputs: evidence.outputs.length,
      'bytes scanned': `${(bytes / 1024).toFixed(0)} KB`,
    })
  },
}
