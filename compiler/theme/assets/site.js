// The shell's only script: colour-mode toggle, component tabs, copy buttons, search, page actions
// and the table of contents highlight. Everything else works without it.
;(() => {
  const root = document.documentElement
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? ''
  const siteRoot = new URL(meta('docs-root') || './', location.href)

  // Colour mode: the head script already applied it; the toggle flips and remembers it.
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

  // Tabs and code groups: ARIA tablists, arrow keys move between tabs.
  const selectTab = (tab, focus) => {
    const list = tab.closest('[role="tablist"]')
    if (!list) return
    for (const other of list.querySelectorAll('[role="tab"]')) {
      const selected = other === tab
      other.setAttribute('aria-selected', String(selected))
      other.tabIndex = selected ? 0 : -1
      const panel = document.getElementById(other.getAttribute('aria-controls') ?? '')
      if (panel) panel.hidden = !selected
    }
    if (focus) tab.focus()
  }
  document.addEventListener('click', (event) => {
    const tab = event.target.closest?.('[role="tab"]')
    if (tab) selectTab(tab, false)
  })
  document.addEventListener('keydown', (event) => {
    const tab = event.target.closest?.('[role="tab"]')
    if (!tab) return
    const tabs = [...tab.closest('[role="tablist"]').querySelectorAll('[role="tab"]')]
    const at = tabs.indexOf(tab)
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }
    if (!(event.key in moves)) return
    event.preventDefault()
    selectTab(tabs[(moves[event.key] + tabs.length) % tabs.length], true)
  })

  // Copy buttons on code blocks: copy the code text next to the button.
  const copyText = async (text, button, label) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
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
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button.copy, [data-copy]')
    if (!button) return
    const explicit = button.getAttribute('data-copy') || button.getAttribute('data-code')
    let text = explicit
    if (!text) {
      let scope = button.parentElement
      while (scope && !scope.querySelector('pre, code')) scope = scope.parentElement
      const code = scope?.querySelector('pre code, pre, code')
      text = code ? code.innerText : ''
    }
    copyText(text.replace(/\n$/, ''), button, '')
  })

  // Page actions: copy the Markdown export; assistant links get the page's absolute URL.
  const contextual = document.querySelector('.d-contextual')
  if (contextual) {
    const markdownUrl = new URL(contextual.getAttribute('data-markdown'), location.href).href
    const prompt = encodeURIComponent(`Read ${markdownUrl} so I can ask questions about it.`)
    for (const link of contextual.querySelectorAll('[data-assistant]')) {
      link.href = link.getAttribute('data-assistant').replace('{prompt}', prompt)
    }
    for (const link of contextual.querySelectorAll('[data-page-template]')) {
      link.href = link
        .getAttribute('data-page-template')
        .replaceAll('$page', encodeURIComponent(location.href))
        .replaceAll('$path', encodeURIComponent(location.pathname))
    }
    const copy = contextual.querySelector('[data-copy-markdown]')
    copy?.addEventListener('click', async () => {
      const response = await fetch(markdownUrl)
      copyText(response.ok ? await response.text() : location.href, copy, 'Copied')
    })
  }

  // Table of contents: mark the heading being read.
  const tocLinks = [...document.querySelectorAll('.d-toc-nav li a')]
  if (tocLinks.length && 'IntersectionObserver' in window) {
    const byId = new Map(tocLinks.map((link) => [decodeURIComponent(link.hash.slice(1)), link]))
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((entry) => entry.isIntersecting)
        if (!visible.length) return
        for (const link of tocLinks) link.removeAttribute('aria-current')
        byId.get(visible[0].target.id)?.setAttribute('aria-current', 'true')
      },
      { rootMargin: '-80px 0px -70% 0px' },
    )
    for (const id of byId.keys()) {
      const heading = document.getElementById(id)
      if (heading) observer.observe(heading)
    }
  }

  // Phones: following a sidebar link closes the drawer.
  const drawer = document.getElementById('d-nav-toggle')
  document.querySelector('.d-sidebar')?.addEventListener('click', (event) => {
    if (drawer && event.target.closest('a')) drawer.checked = false
  })
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && drawer?.checked) drawer.checked = false
  })

  // Search: a static index (`_search/index.js`) loaded on first use, ranked in the browser.
  const dialog = document.querySelector('.d-search-dialog')
  if (!dialog) return
  const input = dialog.querySelector('input')
  const results = dialog.querySelector('.d-search-results')
  const status = dialog.querySelector('.d-search-status')
  let index
  let loading
  let selected = 0
  const loadIndex = () => {
    loading ??= new Promise((resolve, reject) => {
      const script = document.createElement('script')
      script.src = meta('docs-search-index')
      script.onload = () => {
        index = window.__docsSearchIndex ?? { pages: [] }
        resolve(index)
      }
      script.onerror = () => reject(new Error('search index unavailable'))
      document.head.append(script)
    })
    return loading
  }
  const open = () => {
    if (!dialog.open) dialog.showModal()
    input.select()
    loadIndex().then(render, () => {
      status.textContent = 'Search is unavailable.'
    })
  }
  document.querySelectorAll('[data-search-open]').forEach((button) => {
    button.addEventListener('click', open)
  })
  document.addEventListener('keydown', (event) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable
    if ((event.key === 'k' && (event.metaKey || event.ctrlKey)) || (event.key === '/' && !typing)) {
      event.preventDefault()
      open()
    }
  })
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close()
  })
  const escapeHtml = (text) =>
    text.replace(
      /[&<>"']/g,
      (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char],
    )
  const highlight = (text, words) => {
    let html = escapeHtml(text)
    for (const word of words) {
      if (word.length < 2) continue
      html = html.replace(
        new RegExp(`(${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'),
        '<mark>$1</mark>',
      )
    }
    return html
  }
  const excerpt = (text, words) => {
    const lower = text.toLowerCase()
    const at = Math.max(
      0,
      ...words
        .map((word) => lower.indexOf(word))
        .filter((i) => i >= 0)
        .slice(0, 1),
    )
    // Begin and end between words, so a snippet never shows half a word.
    let start = Math.max(0, at - 60)
    if (start > 0 && /\S/.test(text[start - 1])) {
      const space = text.indexOf(' ', start)
      start = space !== -1 && space < at ? space + 1 : text.lastIndexOf(' ', at) + 1
    }
    let end = start + 180
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end)
      if (space > at) end = space
    }
    return (start > 0 ? '…' : '') + text.slice(start, end).trim() + (end < text.length ? '…' : '')
  }
  // The description when it mentions a search word; otherwise the body text around the first match.
  const summaryFor = (page, words) =>
    page.d && words.some((word) => page.d.toLowerCase().includes(word)) ? page.d : page.x || page.d || ''
  const search = (query) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    if (!words.length) return []
    const scored = []
    for (const page of index.pages) {
      const title = page.t.toLowerCase()
      const headings = page.h.join(' ').toLowerCase()
      const body = page.x.toLowerCase()
      const keywords = (page.k ?? '').toLowerCase()
      let score = 0
      let all = true
      for (const word of words) {
        const inTitle = title.includes(word)
        const inHeadings = headings.includes(word)
        const inKeywords = keywords.includes(word)
        const inBody = body.includes(word)
        if (!inTitle && !inHeadings && !inBody && !inKeywords) {
          all = false
          break
        }
        score +=
          (inTitle ? 10 : 0) +
          (title.startsWith(word) ? 5 : 0) +
          (inKeywords ? 6 : 0) +
          (inHeadings ? 4 : 0) +
          (inBody ? 1 : 0)
      }
      if (all) scored.push({ page, score, words })
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, 20)
  }
  const render = () => {
    if (!index) return
    const hits = search(input.value)
    selected = 0
    results.innerHTML = hits
      .map(({ page, words }, i) => {
        const href = new URL(page.u, siteRoot).href
        const section = page.s ? `<span class="d-search-result-section">${escapeHtml(page.s)}</span>` : ''
        return `<li role="none"><a role="option" id="d-search-hit-${i}" href="${escapeHtml(href)}" aria-selected="${i === 0}"><span class="d-search-result-title">${highlight(page.t, words)}</span>${section}<span class="d-search-result-excerpt">${highlight(excerpt(summaryFor(page, words), words), words)}</span></a></li>`
      })
      .join('')
    status.textContent = input.value.trim()
      ? hits.length
        ? `${hits.length} result${hits.length === 1 ? '' : 's'}`
        : `No results for “${input.value.trim()}”`
      : ''
  }
  input.addEventListener('input', render)
  input.addEventListener('keydown', (event) => {
    const links = [...results.querySelectorAll('a')]
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!links.length) return
      selected = (selected + (event.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length
      links.forEach((link, i) => {
        link.setAttribute('aria-selected', String(i === selected))
      })
      links[selected].scrollIntoView({ block: 'nearest' })
    } else if (event.key === 'Enter' && links[selected]) {
      event.preventDefault()
      location.href = links[selected].href
    }
  })
})()
