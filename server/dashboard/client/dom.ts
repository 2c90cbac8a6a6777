/** Building the page: elements from data (text only, never HTML strings), forms, dialogs, badges. */
import { ApiFailure } from './api.js'

type Child = Node | string | null | undefined | false
type Attributes = Record<string, string | boolean | undefined | ((event: Event) => void)>

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? '' : value)
  }
  for (const child of children) if (child) element.append(child)
  return element
}

export function main(): HTMLElement {
  const element = document.getElementById('main')
  if (!element) throw new Error('no <main id="main">')
  return element
}

export function render(...children: Child[]): void {
  main().replaceChildren(...children.filter((child): child is Node | string => Boolean(child)))
}

export const bytes = (count: number): string =>
  count < 1024
    ? `${count} B`
    : count < 1024 ** 2
      ? `${(count / 1024).toFixed(1)} KB`
      : `${(count / 1024 ** 2).toFixed(1)} MB`

export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : 'never')

/** Names each cell by its column, so a narrow screen can show a row as a card (see dashboard.css). */
export function labelCells(row: HTMLTableRowElement, titles: readonly string[]): HTMLTableRowElement {
  for (const [index, cell] of [...row.cells].entries()) cell.dataset.label = titles[index] ?? ''
  return row
}

/**
 * A table in a labelled scroll region; on a phone each row becomes a card, each value named by its
 * column (see dashboard.css), so no column is ever out of sight. `rows` may be filled in later:
 * `labelCells` the rows put into it.
 */
export function dataTable(options: {
  label: string
  columns: readonly string[]
  rows: HTMLTableSectionElement
  id?: string
}): HTMLElement {
  for (const row of options.rows.rows) labelCells(row, options.columns)
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': options.label },
    h(
      'table',
      { class: 'cards-on-phone', id: options.id },
      h('thead', {}, h('tr', {}, ...options.columns.map((title) => h('th', { scope: 'col' }, title)))),
      options.rows,
    ),
  )
}

export const statusBadge = (status: string): HTMLElement => h('span', { class: `badge ${status}` }, status)

export function copyButton(value: string, label: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'copy', 'aria-label': label }, 'Copy')
  button.addEventListener('click', async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined)
    button.textContent = 'Copied'
  })
  return button
}

export interface Field {
  name: string
  label: string
  value?: string
  type?: string
  hint?: string
  required?: boolean
  /** A choice among these values (a select) instead of free text. */
  options?: readonly string[]
}

/**
 * A form whose submit calls the API; a refusal shows the API's message, and each issue beside the
 * field its path names (`body/name` → the field `name`).
 */
export function apiForm(options: {
  label: string
  fields: Field[]
  submit: string
  onSubmit: (values: Record<string, string>) => Promise<void>
  extra?: Node
}): HTMLFormElement {
  const id = options.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const alert = h('p', { class: 'error', role: 'alert' })
  const errors = new Map<string, HTMLElement>()
  const form = h('form', { 'aria-label': options.label, novalidate: true })
  for (const field of options.fields) {
    const inputId = `${id}-${field.name}`
    const error = h('p', { class: 'field-error', id: `${inputId}-error` })
    errors.set(field.name, error)
    const describedBy = [field.hint ? `${inputId}-hint` : '', `${inputId}-error`].filter(Boolean).join(' ')
    form.append(
      h(
        'div',
        { class: 'field' },
        h('label', { for: inputId }, field.label),
        field.options
          ? h(
              'select',
              { id: inputId, name: field.name, 'aria-describedby': describedBy },
              ...field.options.map((option) =>
                h('option', { value: option, selected: option === field.value }, option),
              ),
            )
          : h('input', {
              id: inputId,
              name: field.name,
              type: field.type ?? 'text',
              value: field.value,
              required: field.required,
              'aria-describedby': describedBy,
            }),
        field.hint ? h('p', { class: 'hint', id: `${inputId}-hint` }, field.hint) : null,
        error,
      ),
    )
  }
  if (options.extra) form.append(options.extra)
  const button = h('button', { type: 'submit', class: 'primary' }, options.submit)
  form.append(alert, button)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    alert.textContent = ''
    for (const [name, error] of errors) {
      error.textContent = ''
      form.querySelector(`[name="${name}"]`)?.removeAttribute('aria-invalid')
    }
    const values: Record<string, string> = {}
    for (const [name, value] of new FormData(form)) values[name] = String(value)
    button.disabled = true
    try {
      await options.onSubmit(values)
    } catch (failure) {
      if (!(failure instanceof ApiFailure)) throw failure
      alert.textContent = failure.message
      for (const issue of failure.issues) {
        const name = issue.path.split('/').pop() ?? ''
        const error = errors.get(name)
        if (!error) continue
        error.textContent = issue.message
        form.querySelector(`[name="${name}"]`)?.setAttribute('aria-invalid', 'true')
      }
    } finally {
      button.disabled = false
    }
  })
  return form
}

/** A confirmation in a modal dialog (focus moves into it, Escape cancels); resolves true on confirm. */
export function confirmDialog(message: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { 'aria-label': confirmLabel },
      h('p', {}, message),
      h(
        'form',
        { method: 'dialog', class: 'actions' },
        h('button', { value: 'cancel' }, 'Cancel'),
        h('button', { value: 'confirm', class: 'primary danger' }, confirmLabel),
      ),
    )
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm')
      dialog.remove()
    })
    document.body.append(dialog)
    dialog.showModal()
  })
}

export function notFound(message: string): void {
  render(
    h('h1', {}, 'Not found'),
    h('p', {}, message),
    h('p', {}, h('a', { href: '/dashboard/' }, 'Your projects')),
  )
}

/**
 * Runs `task` every `ms` while the page is open, one at a time, until it answers false. A passing
 * failure (the network) is tried again; an ended session goes back to the sign-in page.
 */
export function every(ms: number, task: () => Promise<unknown>): void {
  const tick = async () => {
    const again = await task().catch((failure: unknown) => {
      if (failure instanceof ApiFailure && failure.status === 401) {
        location.assign('/dashboard/')
        return false
      }
      return true
    })
    if (again !== false) setTimeout(tick, ms)
  }
  setTimeout(tick, ms)
}
