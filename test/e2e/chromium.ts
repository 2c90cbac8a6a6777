/** The Chromium every browser test drives (Debian's, through playwright-core), launched one way. */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

export const chromiumPath = '/usr/bin/chromium'

/** For `test(…, { skip })`: a reason to skip when this machine has no Chromium. */
export const noChromium: false | string = !existsSync(chromiumPath) && 'no chromium'

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
