/** Copy buttons on code blocks: copy the code text next to the button. */
import { currentPath, sendInsight } from './insights.js'
import { closestTo } from './page.js'

/** Copies `text`, marks the button `data-copied` for 1.5 s and, given a label, shows it meanwhile. */
export async function copyText(text: string, button: HTMLElement, label: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    // Without clipboard permission (or over plain http) the old selection-based copy still works.
    const area = document.createElement('textarea')
    area.value = text
    document.body.append(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
  button.setAttribute('data-copied', '')
  const labelNode = button.querySelector('span') ?? button
  const before = labelNode.textContent
  if (label) labelNode.textContent = label
  setTimeout(() => {
    button.removeAttribute('data-copied')
    if (label) labelNode.textContent = before
  }, 1500)
}

/** The code a copy button stands beside: its nearest ancestor that holds a `pre` or `code`. */
function codeNear(button: HTMLElement): string {
  let scope = button.parentElement
  while (scope && !scope.querySelector('pre, code')) scope = scope.parentElement
  const code = scope?.querySelector<HTMLElement>('pre code, pre, code')
  return code ? code.innerText : ''
}

export function setUpCopyButtons(): void {
  document.addEventListener('click', (event) => {
    const button = closestTo(event, 'button.copy, [data-copy]')
    if (!button) return
    const text = button.getAttribute('data-copy') || button.getAttribute('data-code') || codeNear(button)
    copyText(text.replace(/\n$/, ''), button, '')
    const path = currentPath()
    if (path !== undefined && !button.closest('[data-not-found]')) sendInsight({ type: 'copy', path })
  })
}
