/** Chromium for browser tests (playwright-core drives the system's /usr/bin/chromium, headless). */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { assertTierAllows } from './tier.js'

export const chromiumPath = '/usr/bin/chromium'

/** `false`, or the reason browser tests skip on this machine. */
export const noChromium: false | string = !existsSync(chromiumPath) && 'no chromium'

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  assertTierAllows('Chromium')
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  })
}
