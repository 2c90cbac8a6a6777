/** Phones: following a sidebar link (or pressing Escape) closes the navigation drawer. */
import { closestTo } from './page.js'

export function setUpNavDrawer(): void {
  const drawer = document.getElementById('d-nav-toggle')
  if (!(drawer instanceof HTMLInputElement)) return
  document.querySelector('.d-sidebar')?.addEventListener('click', (event) => {
    if (closestTo(event, 'a')) drawer.checked = false
  })
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && drawer.checked) drawer.checked = false
  })
}
