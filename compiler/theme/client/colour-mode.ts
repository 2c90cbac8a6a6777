/** Colour mode: the head script already applied it; the toggle flips and remembers it. */
export function setUpColourModeToggle(): void {
  const root = document.documentElement
  for (const button of document.querySelectorAll('[data-theme-toggle]')) {
    const sync = () => button.setAttribute('aria-pressed', String(root.getAttribute('data-theme') === 'dark'))
    sync()
    button.addEventListener('click', () => {
      const next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark'
      root.setAttribute('data-theme', next)
      try {
        localStorage.setItem('docs-theme', next)
      } catch {}
      sync()
    })
  }
}
