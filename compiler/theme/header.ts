/**
 * The header: menu button (phones), logo, search button, navbar links, version and language
 * dropdowns, colour-mode toggle; below it the tabs of the navigation.
 */

import escapeHtml from 'escape-html'
import type { NavLink } from '../config/types.js'
import { versionQuery } from '../content/asset-version.js'
import { urlProblem } from '../url-policy.js'
import type { SiteContext } from './context.js'
import { join } from './html.js'
import { matchingPage, type SectionChoice, sectionChoices } from './sections.js'
import { externalAttributes, sectionHref } from './sidebar.js'
import { configHref, pageHref, siteHref } from './urls.js'

export function renderHeader(site: SiteContext, slug: string, tabIndex: number, hasSidebar: boolean): string {
  const { config } = site
  const strict = config.appearance?.strict === true
  const navbarLinks = config.navbar?.links ?? []
  const primary = config.navbar?.primary
  // The schema lets a button leave out its target; a button that leads nowhere is not drawn.
  const primaryHref = primary?.href
  const links = join(
    ...navbarLinks.map(
      (link) =>
        `<a class="d-navbar-link" href="${escapeHtml(configHref(slug, link.href))}"${externalAttributes(link.href)}>${escapeHtml(link.label)}</a>`,
    ),
    primaryHref !== undefined &&
      `<a class="d-navbar-primary" href="${escapeHtml(configHref(slug, primaryHref))}"${externalAttributes(primaryHref)}>${escapeHtml(primary?.label ?? 'Get started')}</a>`,
  )
  const menuButton = hasSidebar
    ? '<button type="button" class="d-menu-button" data-nav-open aria-expanded="false" aria-controls="d-sidebar" aria-label="Navigation"><svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></button>'
    : ''
  const searchPrompt = config.search?.prompt ?? 'Search…'
  const toggle = strict
    ? ''
    : `<button type="button" class="d-icon-button d-theme-toggle" data-theme-toggle aria-label="Toggle dark mode"><svg class="d-icon-sun" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg><svg class="d-icon-moon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg></button>`
  const bar = `<div class="d-header-bar">${menuButton}${renderLogo(site, slug)}<button type="button" class="d-search-button" data-search-open><svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path d="m20 20-3.5-3.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg><span class="d-search-prompt">${escapeHtml(searchPrompt)}</span><kbd>Ctrl K</kbd></button><div class="d-header-end">${renderSwitchers(site, slug, tabIndex)}${renderDropdown('Version', site.navigation.versions, slug)}${renderDropdown('Language', site.navigation.languages, slug)}<nav class="d-navbar" aria-label="Site links">${links}</nav>${toggle}</div></div>`
  return `<header class="d-header">${bar}${renderTabs(site, slug, tabIndex)}</header>`
}

function renderLogo(site: SiteContext, slug: string): string {
  const { config } = site
  const logo = config.logo
  const home = pageHref(slug, homePage(site))
  // A lenient build keeps a logo object docs.json got wrong (`"logo": {}`): without a light image, the name.
  const light = typeof logo === 'string' ? logo : logo?.light
  if (!logo || typeof light !== 'string')
    return `<a class="d-logo d-logo-text" href="${escapeHtml(home)}">${escapeHtml(config.name)}</a>`
  const dark = typeof logo === 'string' || typeof logo.dark !== 'string' ? light : logo.dark
  const themed = { light, dark }
  const alt = typeof logo === 'string' ? config.name : (logo.alt ?? config.name)
  const href = typeof logo === 'string' || !logo.href ? home : configHref(slug, logo.href)
  const source = (path: string) => escapeHtml(configAsset(slug, path, site.assets.versions))
  const images =
    themed.light === themed.dark
      ? `<img src="${source(themed.light)}" alt="${escapeHtml(alt)}" height="28">`
      : `<img class="d-only-light" src="${source(themed.light)}" alt="${escapeHtml(alt)}" height="28"><img class="d-only-dark" src="${source(themed.dark)}" alt="${escapeHtml(alt)}" height="28">`
  return `<a class="d-logo" href="${escapeHtml(href)}">${images}</a>`
}

/**
 * A docs.json asset path (`/logo/light.svg`, `logo/light.svg` or a URL) relative to the page, with the
 * file's version when `versions` has one.
 */
export function configAsset(slug: string, path: string, versions?: Readonly<Record<string, string>>): string {
  if (urlProblem(path, 'image')) return ''
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) return path
  const sitePath = path.replace(/^\/+/, '')
  return (
    siteHref(slug, sitePath) +
    versionQuery(versions && Object.hasOwn(versions, sitePath) ? versions[sitePath] : undefined)
  )
}

function renderDropdown(label: string, links: readonly NavLink[], slug: string): string {
  if (links.length === 0) return ''
  const first = links[0]!
  const items = links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(configHref(slug, link.href))}"${externalAttributes(link.href)}>${escapeHtml(link.label)}</a></li>`,
    )
    .join('')
  return `<details class="d-dropdown"><summary aria-label="${label}: ${escapeHtml(first.label)}">${escapeHtml(first.label)}</summary><ul>${items}</ul></details>`
}

/** Where the home link leads: the `index` page, else the first page of the navigation. */
export function homePage(site: SiteContext): string {
  if (site.pages.has('index')) return 'index'
  return site.firstPageOfTab.find((slug) => slug !== undefined) ?? 'index'
}

/** Labels of the header switchers, by the kind of section they switch. */
const SWITCHERS = { product: 'Product', version: 'Version', language: 'Language' } as const

/** Product, version and language switchers: each option keeps the reader on the matching page. */
function renderSwitchers(site: SiteContext, slug: string, tabIndex: number): string {
  return sectionChoices(site, tabIndex)
    .filter((choice) => choice.kind in SWITCHERS && choice.current)
    .map((choice) => {
      const label = SWITCHERS[choice.kind as keyof typeof SWITCHERS]
      const current = choice.current!
      const items = choice.options
        .map((option) => {
          const page = option === current ? slug : matchingPage(site, slug, current, option)
          const href =
            page !== undefined
              ? pageHref(slug, page)
              : option.href
                ? configHref(slug, option.href)
                : undefined
          if (href === undefined) return ''
          const here = option === current ? ' aria-current="true"' : ''
          const lang = option.locale ? ` hreflang="${escapeHtml(option.locale)}"` : ''
          return `<li><a href="${escapeHtml(href)}"${here}${lang}${page === undefined && option.href ? externalAttributes(option.href) : ''}>${escapeHtml(option.label)}</a></li>`
        })
        .join('')
      return `<details class="d-dropdown d-switcher" data-switcher="${choice.kind}"><summary aria-label="${label}: ${escapeHtml(current.label)}">${escapeHtml(current.label)}</summary><ul>${items}</ul></details>`
    })
    .join('')
}

/** The tab bar: the tabs beside the current sidebar's (or, above the first level of tabs, all of them). */
function renderTabs(site: SiteContext, slug: string, tabIndex: number): string {
  const choice: SectionChoice | undefined = sectionChoices(site, tabIndex).find((each) => each.kind === 'tab')
  if (!choice) return ''
  const items = choice.options
    .map((section) => {
      const href = sectionHref(site, slug, section) ?? siteHref(slug, '')
      const current = section === choice.current ? ' aria-current="true"' : ''
      const icon = section.icon ? site.iconSvg(section.icon) : undefined
      const external = section.href && !href.startsWith('.') ? externalAttributes(section.href) : ''
      return `<li><a class="d-tab" href="${escapeHtml(href)}"${current}${external}>${icon ? `<span class="d-nav-icon" aria-hidden="true">${icon}</span>` : ''}${escapeHtml(section.label)}</a></li>`
    })
    .join('')
  return `<nav class="d-tabs" aria-label="Sections"><ul>${items}</ul></nav>`
}
