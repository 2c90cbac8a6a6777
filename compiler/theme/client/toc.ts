/** Table of contents: mark the heading being read. */
export function setUpTocHighlight(): void {
  const tocLinks = [...document.querySelectorAll<HTMLAnchorElement>('.d-toc-nav li a')]
  if (!tocLinks.length || !('IntersectionObserver' in window)) return
  const byId = new Map(tocLinks.map((link) => [decodeURIComponent(link.hash.slice(1)), link]))
  const observer = new IntersectionObserver(
    (entries) => {
      const visible = entries.filter((entry) => entry.isIntersecting)
      const first = visible[0]
      if (!first) return
      for (const link of tocLinks) link.removeAttribute('aria-current')
      byId.get(first.target.id)?.setAttribute('aria-current', 'true')
    },
    { rootMargin: '-80px 0px -70% 0px' },
  )
  for (const id of byId.keys()) {
    const heading = document.getElementById(id)
    if (heading) observer.observe(heading)
  }
}
