/**
 * The shell's only script, bundled by esbuild into `site.js`: colour-mode toggle, component tabs, copy
 * buttons, page actions, the table of contents highlight, the phone drawer (its menu button does
 * nothing without it), search and the dismissed banner staying closed across pages. Everything else
 * works without it. Reader insights (views, searches, feedback, copies, 404s) go to the site's own
 * server, never for readers with Do-Not-Track or Global Privacy Control.
 */
import { setUpBanner } from './banner.js'
import { setUpColourModeToggle } from './colour-mode.js'
import { setUpCopyButtons } from './copy.js'
import { setUpFeedback } from './feedback.js'
import { setUpInsights } from './insights.js'
import { setUpNavDrawer } from './nav-drawer.js'
import { setUpPageActions } from './page-actions.js'
import { setUpSearch } from './search.js'
import { setUpTabs } from './tabs.js'
import { setUpTocHighlight } from './toc.js'

setUpColourModeToggle()
setUpTabs()
setUpCopyButtons()
setUpPageActions()
setUpTocHighlight()
setUpNavDrawer()
setUpSearch()
setUpBanner(document)
setUpFeedback()
setUpInsights()
