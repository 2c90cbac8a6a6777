/** Page actions: copy the Markdown export; assistant links get the page's absolute URL. */
import { copyText } from './copy.js'

export function setUpPageActions(): void {
  const contextual = document.querySelector('.d-contextual')
  if (!contextual) return
  const markdownUrl = new URL(contextual.getAttribute('data-markdown') ?? '', location.href).href
  const prompt = encodeURIComponent(`Read ${markdownUrl} so I can ask questions about it.`)
  for (const link of contextual.querySelectorAll<HTMLAnchorElement>('[data-assistant]')) {
    link.href = (link.getAttribute('data-assistant') ?? '').replace('{prompt}', prompt)
  }
  for (const link of contextual.querySelectorAll<HTMLAnchorElement>('[data-page-template]')) {
    link.href = (link.getAttribute('data-page-template') ?? '')
      .replaceAll('$page', encodeURIComponent(location.href))
      .replaceAll('$path', encodeURIComponent(location.pathname))
  }
  const copy = contextual.querySelector<HTMLElement>('[data-copy-markdown]')
  copy?.addEventListener('click', async () => {
    const response = await fetch(markdownUrl)
    copyText(response.ok ? await response.text() : location.href, copy, 'Copied')
  })
}
