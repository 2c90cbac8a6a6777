/** Server-sent events that tell every open preview tab to reload after a saved change. */
import type { ServerResponse } from 'node:http'

export const EVENTS_PATH = '/__docsctl/events'

/** The live reload script's text: its hash is allowed by the preview's Content-Security-Policy. */
export const liveReloadSource = `(function(){var s=new EventSource(${JSON.stringify(EVENTS_PATH)});s.addEventListener('reload',function(){location.reload()})})()`

/** Injected before `</body>` of every page the preview serves. */
export const liveReloadScript = `<script>${liveReloadSource}</script>`

export function injectLiveReload(html: string): string {
  const at = html.lastIndexOf('</body>')
  return at < 0 ? html + liveReloadScript : html.slice(0, at) + liveReloadScript + html.slice(at)
}

export class LiveReload {
  #clients = new Set<ServerResponse>()

  connect(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    })
    response.write(': connected\n\n')
    this.#clients.add(response)
    response.on('close', () => this.#clients.delete(response))
  }

  reload(): void {
    for (const client of this.#clients) client.write('event: reload\ndata: {}\n\n')
  }

  close(): void {
    for (const client of this.#clients) client.end()
    this.#clients.clear()
  }
}
