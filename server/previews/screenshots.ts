/**
 * The change report's visual diff: each changed page of the live site and of the preview, at a
 * desktop and a phone width, in headless Chromium, and a difference image of the two (pixelmatch).
 * The browser reaches no network: every request is answered from the two deployments' built files
 * (hosts `live.report.invalid` and `preview.report.invalid`) and anything else is refused, so a page
 * shows what it serves and the screenshots leak nothing.
 */

import type { Browser, Page } from 'playwright-core'
import type { PNG } from 'pngjs'

/** Bytes and type of one file of a built site, by its path in the site manifest. */
export type SiteFiles = (path: string) => Promise<{ bytes: Buffer; contentType: string } | undefined>

export const viewports = [
  { viewport: 'desktop', width: 1280, height: 800 },
  { viewport: 'phone', width: 390, height: 844 },
] as const

/** Screenshots stop at this height: the top of a long page shows what changed often enough. */
const maxHeight = 4000

export interface PageScreenshots {
  slug: string
  viewport: 'desktop' | 'phone'
  width: number
  live: Buffer | null
  preview: Buffer
  difference: Buffer | null
  differentPixels: number
}

/** `/guide/setup/` → `guide/setup/index.html`; `/a/b.css` → `a/b.css`. */
function filePathOf(pathname: string): string {
  let path = pathname
  try {
    path = decodeURIComponent(pathname)
  } catch {}
  path = path.replace(/^\/+/, '')
  return path === '' || path.endsWith('/') ? `${path}index.html` : path
}

const pagePath = (slug: string) => (slug === 'index' ? '/' : `/${slug}/`)

/**
 * Both images on one canvas of the larger size (white where one is shorter), then compared. The image
 * packages load with the first comparison, not with every server start.
 */
export async function differenceImage(
  a: Buffer,
  b: Buffer,
): Promise<{ image: Buffer; differentPixels: number }> {
  const [{ PNG }, { default: pixelmatch }] = await Promise.all([import('pngjs'), import('pixelmatch')])
  const left = PNG.sync.read(a)
  const right = PNG.sync.read(b)
  const width = Math.max(left.width, right.width)
  const height = Math.max(left.height, right.height)
  const pad = (image: PNG): Buffer => {
    const canvas = Buffer.alloc(width * height * 4, 255)
    for (let y = 0; y < image.height; y++)
      image.data.copy(canvas, y * width * 4, y * image.width * 4, (y + 1) * image.width * 4)
    return canvas
  }
  const out = new PNG({ width, height })
  const differentPixels = pixelmatch(pad(left), pad(right), out.data, width, height, { threshold: 0.1 })
  return { image: PNG.sync.write(out), differentPixels }
}

export async function takeScreenshots(options: {
  chromiumPath: string
  live: SiteFiles | undefined
  preview: SiteFiles
  slugs: readonly { slug: string; live: boolean }[]
}): Promise<PageScreenshots[]> {
  // Loaded only when a report takes screenshots: playwright-core costs every server start half a CPU-second.
  const { chromium } = await import('playwright-core')
  const browser: Browser = await chromium.launch({
    executablePath: options.chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  })
  try {
    const context = await browser.newContext({ javaScriptEnabled: true, serviceWorkers: 'block' })
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url())
      const files =
        url.hostname === 'live.report.invalid'
          ? options.live
          : url.hostname === 'preview.report.invalid'
            ? options.preview
            : undefined
      const file = files ? await files(filePathOf(url.pathname)) : undefined
      if (!file) return route.fulfill({ status: url.protocol === 'https:' && files ? 404 : 403, body: '' })
      return route.fulfill({ status: 200, contentType: file.contentType, body: file.bytes })
    })
    // Live and preview load side by side, in two tabs.
    const [livePage, previewPage] = await Promise.all([context.newPage(), context.newPage()])
    const shoot = async (page: Page, host: string, slug: string): Promise<Buffer> => {
      await page.goto(`https://${host}${pagePath(slug)}`, { waitUntil: 'load' })
      const height = Math.min(maxHeight, await page.evaluate(() => document.documentElement.scrollHeight))
      const width = page.viewportSize()?.width ?? 1280
      return page.screenshot({ clip: { x: 0, y: 0, width, height }, fullPage: true, animations: 'disabled' })
    }
    const shots: PageScreenshots[] = []
    for (const { viewport, width, height } of viewports) {
      await Promise.all([
        livePage.setViewportSize({ width, height }),
        previewPage.setViewportSize({ width, height }),
      ])
      for (const { slug, live } of options.slugs) {
        const [preview, before] = await Promise.all([
          shoot(previewPage, 'preview.report.invalid', slug),
          live && options.live ? shoot(livePage, 'live.report.invalid', slug) : null,
        ])
        const difference = before ? await differenceImage(before, preview) : null
        shots.push({
          slug,
          viewport,
          width,
          live: before,
          preview,
          difference: difference?.image ?? null,
          differentPixels: difference?.differentPixels ?? 0,
        })
      }
    }
    return shots
  } finally {
    await browser.close()
  }
}
