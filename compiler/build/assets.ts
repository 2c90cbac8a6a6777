/**
 * Stage 6 of `buildSite`: the files every page loads.
 * In: the site context, the bodies this build rendered, the site's files, and whether the whole site
 * is built (a partial build publishes only the assets its pages use) and has "Try it" panels.
 * Out, into the site's files: the Tailwind stylesheet of the class names authors wrote, the theme's
 * hashed script and stylesheet, KaTeX and mermaid only for sites that use them, the author's static
 * files (never in place of a hashed asset) and the site's stylesheets scoped to the article, the files
 * they load versioned. The
 * context learns the stylesheets' paths and the versions the shell links author files with; out too: the hashed paths (cached for a year) and a warning
 * per stylesheet rule dropped.
 */
import { assetVersion } from '../content/asset-version.js'
import type { RenderedPage } from '../content/render-page.js'
import type { Diagnostic } from '../diagnostics.js'
import type { SiteFiles, SourceFiles } from '../files.js'
import { collectStaticAssets, configAssetPaths } from '../outputs/static-assets.js'
import { themeFiles } from '../theme/assets.js'
import type { SiteContext } from '../theme/context.js'
import { diagramFiles } from '../theme/diagram-assets.js'
import { mathFiles } from '../theme/math-assets.js'
import { type StylesheetWarning, scopeRootStylesheet } from '../theme/scope-stylesheet.js'
import { stylesheetSiteFiles, versionStylesheetUrls } from '../theme/stylesheet-urls.js'
import { compileTailwind, siteStylesheets, type TailwindStylesheet } from '../theme/tailwind.js'
import type { SitePage } from './discover.js'

export interface SiteAssets {
  /** Paths of the theme's content-hashed files, which readers may cache for a year. */
  hashedAssets: Set<string>
  /** The Tailwind stylesheet, when authors wrote class names it knows. */
  tailwind: TailwindStylesheet | undefined
  diagnostics: Diagnostic[]
}

export async function writeSiteAssets(
  output: SiteFiles,
  context: SiteContext,
  {
    selected,
    rendered,
    files,
    wholeSite,
    playground,
  }: {
    selected: readonly SitePage[]
    rendered: ReadonlyMap<string, RenderedPage>
    files: SourceFiles
    wholeSite: boolean
    playground: boolean
  },
): Promise<SiteAssets> {
  const diagnostics: Diagnostic[] = []
  // Tailwind runs only when authors wrote class names on HTML elements; only the classes used become rules.
  const tailwind = await compileTailwind([...rendered.values()].flatMap((body) => body.classNames ?? []))
  if (tailwind) {
    output.set(tailwind.path, tailwind.bytes)
    context.assets.tailwindCss = tailwind.path
  }
  const stylesheets = siteStylesheets(files.keys())
  if (stylesheets.length > 0) context.assets.stylesheets = stylesheets
  const theme = themeFiles()
  // The API pages' script only in sites with a "Try it" panel, so other sites' files stay as they were.
  for (const [path, bytes] of theme.files) if (path !== theme.apiJsPath || playground) output.set(path, bytes)
  const assetPaths = new Set<string>()
  let usesMath = false
  let usesDiagrams = false
  for (const page of selected) {
    const body = rendered.get(page.slug)
    if (!body) continue
    for (const asset of body.assets) assetPaths.add(asset)
    if (body.math) usesMath = true
    if (body.mermaid) usesDiagrams = true
  }
  // KaTeX's stylesheet and fonts ship only with a site that shows math.
  const hashedAssets = new Set(theme.files.keys())
  if (usesMath) {
    for (const [path, bytes] of mathFiles().files) {
      output.set(path, bytes)
      hashedAssets.add(path)
    }
  }
  // The mermaid bundle (3.5 MB) ships only with a site that has a diagram.
  if (usesDiagrams) {
    for (const [path, bytes] of diagramFiles().files) {
      output.set(path, bytes)
      hashedAssets.add(path)
    }
  }
  if (tailwind) hashedAssets.add(tailwind.path)
  // The site's stylesheets are linked by every page, so they are published, with the images and fonts they load.
  for (const path of stylesheets) {
    assetPaths.add(path)
    const bytes = files.get(path)
    if (bytes)
      for (const file of stylesheetSiteFiles(new TextDecoder().decode(bytes), path)) assetPaths.add(file)
  }
  // An author's file never takes the place of the theme's hashed assets (nor their year-long caching).
  for (const [path, bytes] of collectStaticAssets(files, context.config, assetPaths, wholeSite))
    if (!hashedAssets.has(path)) output.set(path, bytes)
  // The site's stylesheets style the article only: they cannot restyle the shell (compiler/theme/scope-stylesheet.ts).
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  for (const path of stylesheets) {
    const bytes = output.get(path)
    if (!bytes) continue
    const warnings: StylesheetWarning[] = []
    const scoped = scopeRootStylesheet(decoder.decode(bytes), stylesheets, warnings)
    // The files it loads carry their versions, so a reader never mixes two deployments' images and fonts.
    const versioned = versionStylesheetUrls(scoped, path, (file) =>
      hashedAssets.has(file) ? undefined : output.get(file),
    )
    output.set(path, encoder.encode(versioned))
    for (const { line, column, message } of warnings)
      diagnostics.push({
        severity: 'warning',
        file: path,
        line,
        column,
        rule: 'stylesheet-rule-dropped',
        message,
      })
  }
  // The shell links the site's stylesheets, logo and favicon with the version of the bytes published.
  const versions: Record<string, string> = {}
  for (const path of [...stylesheets, ...configAssetPaths(context.config)]) {
    const bytes = hashedAssets.has(path) ? undefined : output.get(path)
    if (bytes) versions[path] = assetVersion(bytes)
  }
  if (Object.keys(versions).length > 0) context.assets.versions = versions
  return { hashedAssets, tailwind, diagnostics }
}
