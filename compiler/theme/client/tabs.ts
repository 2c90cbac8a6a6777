/** Tabs and code groups: ARIA tablists, arrow keys move between tabs. */
import { closestTo } from './page.js'

function selectTab(tab: HTMLElement, focus: boolean): void {
  const list = tab.closest('[role="tablist"]')
  if (!list) return
  for (const other of list.querySelectorAll<HTMLElement>('[role="tab"]')) {
    const selected = other === tab
    other.setAttribute('aria-selected', String(selected))
    other.tabIndex = selected ? 0 : -1
    const panel = document.getElementById(other.getAttribute('aria-controls') ?? '')
    if (panel) panel.hidden = !selected
  }
  if (focus) tab.focus()
}

/** The index a key moves to from tab `at` of `count`, or undefined for keys that do not move. */
function moveFor(key: string, at: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
      return at + 1
    case 'ArrowLeft':
      return at - 1
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return undefined
  }
}

export function setUpTabs(): void {
  document.addEventListener('click', (event) => {
    const tab = closestTo(event, '[role="tab"]')
    if (tab) selectTab(tab, false)
  })
  document.addEventListener('keydown', (event) => {
    const tab = closestTo(event, '[role="tab"]')
    const list = tab?.closest('[role="tablist"]')
    if (!tab || !list) return
    const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]')]
    const move = moveFor(event.key, tabs.indexOf(tab), tabs.length)
    if (move === undefined) return
    event.preventDefault()
    const next = tabs[(move + tabs.length) % tabs.length]
    if (next) selectTab(next, true)
  })
}
