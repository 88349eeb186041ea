import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { FramesView } from './frames.js';
import { NotesView } from './notes.js';
import { NextView } from './next.js';
import { CompactionView } from './compaction.js';

/** The page: a header with the four views (hash routes), a theme switch, and the current view. */

const VIEWS = [
  { id: 'frames', label: 'Frames', key: '1', view: FramesView },
  { id: 'notes', label: 'Notes', key: '2', view: NotesView },
  { id: 'next', label: 'Next session', key: '3', view: NextView },
  { id: 'compaction', label: 'Compaction', key: '4', view: CompactionView },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

function currentView(): ViewId {
  const v = location.hash.replace(/^#\/?/, '').split('?')[0] as ViewId;
  return VIEWS.some((x) => x.id === v) ? v : 'frames';
}

// the token has done its work in the address bar (the cookie and the page's own copy remain): keep it out of history and screenshots
if (location.search.includes('token=')) history.replaceState(null, '', location.pathname + location.hash);

type Theme = 'auto' | 'light' | 'dark';
const prefersDark = matchMedia('(prefers-color-scheme: dark)');
/** The stylesheet has one dark palette, under `data-theme="dark"`; auto follows the system's setting. */
function applyTheme(t: Theme) {
  document.documentElement.dataset.theme = t === 'auto' ? (prefersDark.matches ? 'dark' : 'light') : t;
}

function App() {
  const [view, setView] = useState<ViewId>(currentView());
  const [theme, setTheme] = useState<Theme>(((localStorage.getItem('hive-mind-theme') as Theme) ?? 'auto'));
  useEffect(() => {
    const on = () => setView(currentView());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  useEffect(() => {
    applyTheme(theme);
    localStorage.setItem('hive-mind-theme', theme);
    const on = () => applyTheme(theme);
    prefersDark.addEventListener('change', on);
    return () => prefersDark.removeEventListener('change', on);
  }, [theme]);
  useEffect(() => {
    // Alt+1..4 switch views from anywhere
    const on = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const v = VIEWS.find((x) => x.key === e.key);
      if (v) {
        e.preventDefault();
        location.hash = `#/${v.id}`;
      }
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, []);
  useEffect(() => {
    document.title = `${VIEWS.find((v) => v.id === view)!.label} · hive-mind`;
  }, [view]);
  const nextTheme: Record<Theme, Theme> = { auto: 'light', light: 'dark', dark: 'auto' };
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand" aria-hidden="true">hive-mind</span>
      <nav aria-label="Views">
        ${VIEWS.map(
          (v) => html`<a href=${`#/${v.id}`} aria-current=${v.id === view ? 'page' : undefined} title=${`Alt+${v.key}`}>${v.label}</a>`,
        )}
      </nav>
      <button class="ghost theme" type="button" onClick=${() => setTheme(nextTheme[theme])} aria-label=${`Theme: ${theme}. Switch to ${nextTheme[theme]}`}>
        ${theme === 'auto' ? 'Theme: auto' : theme === 'light' ? 'Theme: light' : 'Theme: dark'}
      </button>
    </header>
    <main id="main" tabindex="-1">
      ${VIEWS.filter((v) => v.id === view).map((v) => html`<${v.view} />`)}
    </main>
  `;
}

render(html`<${App} />`, document.getElementById('app')!);
