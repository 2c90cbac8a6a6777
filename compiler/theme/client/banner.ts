/**
 * Remembers that a reader closed the docs.json banner: the shell's checkbox closes it for this page
 * (no JavaScript needed); this keeps it closed on every page until the banner's text changes, since
 * `data-banner` is an id of that text. Meant for the client bundle (`setUpBanner(document)` on load).
 */
const storageKey = (id: string): string => `docs-banner-dismissed-${id}`

export function setUpBanner(root: Document): void {
  const banner = root.querySelector<HTMLElement>('.d-banner[data-banner]')
  const toggle = root.querySelector<HTMLInputElement>('.d-banner-toggle')
  const id = banner?.dataset.banner
  if (!banner || !toggle || !id) return
  try {
    if (localStorage.getItem(storageKey(id)) === '1') toggle.checked = true
    toggle.addEventListener('change', () => {
      if (toggle.checked) localStorage.setItem(storageKey(id), '1')
      else localStorage.removeItem(storageKey(id))
    })
  } catch {
    // Storage blocked (private mode, sandboxed frame): the banner still closes for this page.
  }
}
