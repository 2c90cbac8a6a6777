/** "Was this page helpful?": shown only where insights may be sent; one answer, an optional comment. */
import { currentPath, insightsAllowed, sendInsight } from './insights.js'

export function setUpFeedback(): void {
  const form = document.querySelector<HTMLFormElement>('[data-feedback]')
  const path = currentPath()
  if (!form || path === undefined || !insightsAllowed()) return
  const more = form.querySelector<HTMLElement>('.d-feedback-more')
  const thanks = form.querySelector<HTMLElement>('.d-feedback-thanks')
  const comment = form.querySelector<HTMLTextAreaElement>('textarea')
  let helpful: boolean | undefined
  form.hidden = false
  for (const button of form.querySelectorAll<HTMLButtonElement>('[data-helpful]')) {
    button.addEventListener('click', () => {
      helpful = button.dataset.helpful === 'yes'
      for (const other of form.querySelectorAll('[data-helpful]'))
        other.setAttribute('aria-pressed', String(other === button))
      if (more) more.hidden = false
      comment?.focus()
    })
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (helpful === undefined) return
    // Without control characters but its tabs and line breaks: the server refuses an event that holds one.
    const text = comment?.value.replace(/(?![\t\n\r])\p{Cc}/gu, '').trim() ?? ''
    sendInsight({ type: 'feedback', path, helpful, ...(text ? { comment: text.slice(0, 1000) } : {}) })
    for (const child of form.children) if (child !== thanks) (child as HTMLElement).hidden = true
    if (thanks) thanks.hidden = false
  })
}
