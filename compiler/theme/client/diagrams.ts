/**
 * Draws the page's Mermaid diagrams with the mermaid bundle the page loaded just before this script
 * (both from the site's own `_assets/`), in the theme of the current colour mode, and draws them again
 * when the reader switches it. Until then, and without script, the diagram's source shows.
 */

interface Mermaid {
  initialize(config: { startOnLoad: boolean; theme: 'default' | 'dark'; securityLevel: 'strict' }): void
  render(id: string, text: string): Promise<{ svg: string }>
}

export {}

const mermaid = (globalThis as { mermaid?: Mermaid }).mermaid
const root = document.documentElement
let drawing = 0

async function draw(): Promise<void> {
  if (!mermaid) return
  const run = ++drawing
  const theme = root.getAttribute('data-theme') === 'dark' ? 'dark' : 'default'
  mermaid.initialize({ startOnLoad: false, theme, securityLevel: 'strict' })
  const blocks = document.querySelectorAll<HTMLElement>('.d-mermaid')
  for (const [index, block] of [...blocks].entries()) {
    const source = block.querySelector<HTMLElement>('.d-mermaid-source')
    if (!source?.textContent) continue
    try {
      const { svg } = await mermaid.render(`d-mermaid-${run}-${index}`, source.textContent)
      // A newer switch of colour mode started while this one drew: its pictures win.
      if (run !== drawing) return
      let picture = block.querySelector<HTMLElement>('.d-mermaid-svg')
      if (!picture) {
        picture = document.createElement('div')
        picture.className = 'd-mermaid-svg'
        block.append(picture)
      }
      // mermaid sanitises its own SVG (securityLevel strict: no script, no HTML labels with handlers).
      picture.innerHTML = svg
      block.dataset.theme = theme
      source.hidden = true
    } catch (error) {
      // A diagram mermaid cannot read keeps showing its source, with the reason for the curious.
      block.dataset.error = error instanceof Error ? error.message : String(error)
    }
  }
}

new MutationObserver(() => void draw()).observe(root, { attributes: true, attributeFilter: ['data-theme'] })
void draw()
