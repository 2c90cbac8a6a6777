/**
 * Phones: the menu button opens the navigation drawer as a modal: focus moves to its close button and
 * stays inside it (Tab wraps), and the close button, Escape, the backdrop or following a link close it,
 * focus going back to the menu button.
 */
import { closestTo } from './page.js'

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select, [tabindex]:not([tabindex="-1"])'

export function setUpNavDrawer(): void {
  const drawer = document.getElementById('d-sidebar')
  const menu = document.querySelector<HTMLButtonElement>('[data-nav-open]')
  if (!drawer || !menu) return
  const isOpen = () => drawer.hasAttribute('data-open')
  const open = () => {
    drawer.setAttribute('data-open', '')
    menu.setAttribute('aria-expanded', 'true')
    drawer.querySelector<HTMLElement>('[data-nav-close]')?.focus()
  }
  /** `returnFocus` false when a followed link takes the reader elsewhere. */
  const close = (returnFocus = true) => {
    if (!isOpen()) return
    const focusWasInside = drawer.contains(document.activeElement)
    drawer.removeAttribute('data-open')
    menu.setAttribute('aria-expanded', 'false')
    if (returnFocus && (focusWasInside || document.activeElement === document.body)) menu.focus()
  }
  menu.addEventListener('click', () => (isOpen() ? close() : open()))
  document.addEventListener('click', (event) => {
    if (closestTo(event, '[data-nav-close]')) close()
  })
  drawer.addEventListener('click', (event) => {
    if (closestTo(event, 'a')) close(false)
  })
  document.addEventListener('keydown', (event) => {
    if (!isOpen()) return
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
      return
    }
    if (event.key !== 'Tab') return
    // Keep focus in the drawer while it is open, as in a dialog.
    const stops = [...drawer.querySelectorAll<HTMLElement>(focusable)].filter(
      (element) => element.getClientRects().length > 0,
    )
    const first = stops[0]
    const last = stops.at(-1)
    if (!first || !last) return
    const outside = !drawer.contains(document.activeElement)
    if (event.shiftKey && (document.activeElement === first || outside)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (document.activeElement === last || outside)) {
      event.preventDefault()
      first.focus()
    }
  })
}
