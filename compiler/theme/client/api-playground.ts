/**
 * The "Try it" panel of API pages, bundled on its own (`_assets/api.<hash>.js`) and loaded only by
 * pages that have one. It reads the operation from `data-playground`, builds a form, and sends the
 * request from the reader's browser straight to the API's server (which must allow CORS). What the
 * reader types, keys included, stays in this page.
 */

interface PlaygroundParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
}

interface PlaygroundAuth {
  type: string
  scheme?: string
  in?: string
  name?: string
}

interface Playground {
  method: string
  path: string
  servers: string[]
  parameters: PlaygroundParameter[]
  auth: PlaygroundAuth[]
  contentType?: string
  body?: string
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties)
  node.append(...children)
  return node
}

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  return element('label', {}, [element('span', {}, [text]), control])
}

const authLabel = (auth: PlaygroundAuth): string =>
  auth.type === 'apiKey'
    ? `${auth.name ?? 'API key'} (API key, ${auth.in ?? 'header'})`
    : auth.scheme === 'basic'
      ? 'Authorization (username:password)'
      : 'Authorization (Bearer token)'

function setUp(holder: HTMLElement): void {
  let playground: Playground
  try {
    playground = JSON.parse(holder.dataset.playground ?? '') as Playground
  } catch {
    return
  }
  const form = element('form', { className: 'd-try-it-form' })
  // A spec without `servers` leaves the base URL to the reader.
  const server: HTMLInputElement | HTMLSelectElement =
    playground.servers.length > 0
      ? element('select', { name: 'server' })
      : element('input', {
          type: 'url',
          name: 'server',
          required: true,
          placeholder: 'https://api.example.com',
          spellcheck: false,
        })
  for (const url of playground.servers) server.append(element('option', { value: url }, [url]))
  form.append(labelled(playground.servers.length > 0 ? 'Server' : 'Base URL', server))
  const authInputs = playground.auth.map((auth) => {
    const input = element('input', { type: 'password', autocomplete: 'off', spellcheck: false })
    form.append(labelled(authLabel(auth), input))
    return { auth, input }
  })
  // Browsers refuse to set cookies on another origin's request: cookie parameters are left out.
  const parameterInputs = playground.parameters
    .filter((parameter) => parameter.in !== 'cookie')
    .map((parameter) => {
      const input = element('input', {
        type: 'text',
        required: parameter.required,
        name: `${parameter.in}.${parameter.name}`,
      })
      form.append(
        labelled(`${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})`, input),
      )
      return { parameter, input }
    })
  const body = playground.contentType
    ? element('textarea', { rows: 8, value: playground.body ?? '', spellcheck: false })
    : undefined
  if (body) form.append(labelled(`Body (${playground.contentType})`, body))
  const send = element('button', { type: 'submit' }, ['Send'])
  const status = element('p', { className: 'd-try-it-status' })
  status.setAttribute('role', 'status')
  const output = element('pre', { className: 'd-try-it-response', hidden: true })
  form.append(send, status, output)

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    let path = playground.path
    const query = new URLSearchParams()
    const headers = new Headers()
    for (const { parameter, input } of parameterInputs) {
      if (input.value === '') continue
      if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(input.value))
      else if (parameter.in === 'query') query.append(parameter.name, input.value)
      else headers.set(parameter.name, input.value)
    }
    for (const { auth, input } of authInputs) {
      if (input.value === '') continue
      if (auth.type === 'apiKey' && auth.in === 'query') query.append(auth.name ?? 'api_key', input.value)
      else if (auth.type === 'apiKey') headers.set(auth.name ?? 'X-API-Key', input.value)
      else if (auth.scheme === 'basic') headers.set('Authorization', `Basic ${btoa(input.value)}`)
      else headers.set('Authorization', `Bearer ${input.value}`)
    }
    const search = query.toString()
    const url = `${server.value.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}`
    const init: RequestInit = { method: playground.method, headers }
    if (body && !['GET', 'HEAD'].includes(playground.method) && body.value.trim() !== '') {
      if (playground.contentType) headers.set('Content-Type', playground.contentType)
      init.body = body.value
    }
    send.disabled = true
    status.textContent = `Sending ${playground.method} ${url}…`
    try {
      const started = performance.now()
      const response = await fetch(url, init)
      const text = await response.text()
      status.textContent = `${response.status} ${response.statusText} · ${Math.round(performance.now() - started)} ms`
      output.textContent = prettyJson(text)
      output.hidden = false
    } catch (error) {
      status.textContent = `The request failed (${error instanceof Error ? error.message : String(error)}). The API must allow requests from this site (CORS).`
      output.hidden = true
    } finally {
      send.disabled = false
    }
  })
  holder.append(element('details', {}, [element('summary', {}, ['Try it']), form]))
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

for (const holder of document.querySelectorAll<HTMLElement>('.d-try-it[data-playground]')) setUp(holder)
