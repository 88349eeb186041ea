import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, qs } from './api.js';
import { html, marked, num, when, bytes } from './html.js';

/**
 * Frames: pick a mind (by default "this folder": the folder's workspace mind and the personal
 * mind, merged, each row naming its mind), list or search it (the CLI's search, matches marked), filter, page; open a
 * frame for its provenance and supersede history; change its importance, forget it, send it to
 * or release it from quarantine; undo the last change. Keys: `/` search, `j`/`k` or the arrows
 * move in the list, Enter opens, Esc closes, Ctrl+Z undoes.
 */

const IMPORTANCES = ['critical', 'important', 'normal', 'temporary', 'deprecated'];
const SOURCES = ['user_stated', 'tool_verified', 'agent_inferred', 'import'];
const SCOPES = ['personal', 'workspace', 'thread'];
const PAGE = 50;

interface Filters {
  q: string;
  kind: string;
  importance: string;
  host: string;
  source: string;
  scope: string;
  thread: string;
  state: string;
  temporary: boolean;
}
const NO_FILTERS: Filters = { q: '', kind: '', importance: '', host: '', source: '', scope: '', thread: '', state: '', temporary: false };

export function FramesView() {
  const [minds, setMinds] = useState<any[]>([]);
  // the pick lasts for this tab (a new `hive-mind ui` run opens on its folder's view)
  const [mind, setMind] = useState<string>(sessionStorage.getItem('hive-mind-mind') ?? 'here');
  const [facets, setFacets] = useState<any>({ kinds: [], hosts: [], threads: [], total: 0 });
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<any>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // the open frame and the mind it is in (a row of the merged view names its own)
  const [open, setOpen] = useState<{ id: number; mind: string } | null>(null);
  const openId = open?.id ?? null;
  const [undo, setUndo] = useState<any>(null);
  const [notice, setNotice] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const seq = useRef(0);

  useEffect(() => {
    api('/api/minds').then((r) => {
      setMinds(r.minds);
      if (!r.minds.some((m: any) => m.id === mind)) setMind('here');
    });
    api('/api/undo').then((r) => setUndo(r.undo));
  }, []);
  useEffect(() => {
    sessionStorage.setItem('hive-mind-mind', mind);
    setFilters(NO_FILTERS);
    setQuery('');
    setOpen(null);
    setPage(null); // never show one mind's rows under another's name
    api(`/api/facets${qs({ mind })}`).then(setFacets, (e) => setError(e.message));
  }, [mind]);

  // the search box applies after a pause in typing (Enter applies at once)
  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === query ? f : { ...f, q: query })), 250);
    return () => clearTimeout(t);
  }, [query]);
  useEffect(() => setOffset(0), [filters, mind]);

  const load = useCallback(() => {
    const n = ++seq.current;
    setBusy(true);
    api(`/api/frames${qs({ mind, ...filters, temporary: filters.temporary ? '1' : '', offset, limit: PAGE })}`).then(
      (r) => {
        if (n !== seq.current) return;
        setPage(r);
        setError('');
        setBusy(false);
      },
      (e) => {
        if (n !== seq.current) return;
        setError(e.message);
        setPage(null);
        setBusy(false);
      },
    );
  }, [mind, filters, offset]);
  useEffect(load, [load]);

  const after = (r: any) => {
    setUndo(r.undo ?? null);
    setNotice(r.label ? `Done: ${r.label}.` : '');
    load();
    api(`/api/facets${qs({ mind })}`).then(setFacets);
  };
  const doUndo = async () => {
    try {
      const r = await api('/api/undo', {});
      setUndo(null);
      setNotice(`Undone: ${r.undone.label}.`);
      load();
      // the detail reloads on its own key below
      setDetailKey((k) => k + 1);
    } catch (e: any) {
      setNotice(e.message);
    }
  };
  const [detailKey, setDetailKey] = useState(0);

  // keyboard: '/' to search, j/k and arrows in the list, Esc to close, Ctrl+Z to undo; one
  // listener reading the latest state through a ref (a key pressed before a re-render sees it too)
  const keys = useRef({ openId, undo, doUndo });
  keys.current = { openId, undo, doUndo };
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
      if (e.key === '/' && !typing) {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === 'Escape' && keys.current.openId !== null) {
        setOpen(null);
      } else if ((e.key === 'z' || e.key === 'Z') && (e.ctrlKey || e.metaKey) && !typing && keys.current.undo) {
        e.preventDefault();
        void keys.current.doUndo();
      } else if (!typing && ['j', 'k', 'ArrowDown', 'ArrowUp'].includes(e.key)) {
        const rows = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.row') ?? [])];
        if (!rows.length) return;
        const i = rows.indexOf(document.activeElement as HTMLButtonElement);
        const next = e.key === 'j' || e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : Math.max(0, i - 1);
        e.preventDefault();
        rows[i < 0 ? 0 : next]!.focus();
      }
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, []);

  const set = (k: keyof Filters) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    setFilters((f) => ({ ...f, [k]: el.type === 'checkbox' ? el.checked : el.value }));
  };
  const entry = minds.find((m) => m.id === mind);
  const isOpen = (f: any) => open !== null && open.id === f.id && open.mind === (f.mind ?? mind);
  const total = page?.total ?? 0;
  const active = Object.entries(filters).filter(([k, v]) => k !== 'q' && v).length;

  return html`
    <section class="view frames" aria-labelledby="frames-h">
      <div class="toolbar">
        <h1 id="frames-h">Frames</h1>
        <label class="field">
          <span>Mind</span>
          <select aria-label="Mind" value=${mind} onChange=${(e: Event) => setMind((e.currentTarget as HTMLSelectElement).value)}>
            ${minds.map((m) => html`<option value=${m.id}>${m.kind === 'view' ? m.label : m.kind === 'workspace' ? `workspace ${m.label}` : 'personal'}${m.exists ? '' : ' (empty)'}</option>`)}
          </select>
        </label>
        <form class="search" role="search" onSubmit=${(e: Event) => (e.preventDefault(), setFilters((f) => ({ ...f, q: query })))}>
          <label class="field grow">
            <span>Search</span>
            <input ref=${searchRef} type="search" value=${query} placeholder=${'words, "a phrase", src/file.ts, E0425…  (press /)'}
              onInput=${(e: Event) => setQuery((e.currentTarget as HTMLInputElement).value)} aria-describedby="search-help" />
          </label>
          <span id="search-help" class="sr-only">The same search as hive-mind mind search: BM25 blended with importance and recency.</span>
        </form>
      </div>
      <details class="filters" open=${active > 0}>
        <summary>Filters${active ? ` (${active})` : ''}</summary>
        <div class="filter-grid">
          ${select('Kind', filters.kind, set('kind'), facets.kinds.map(([k, n]: [string, number]) => [k, `${k} (${num(n)})`]))}
          ${select('Importance', filters.importance, set('importance'), IMPORTANCES.map((i) => [i, i]))}
          ${select('Host', filters.host, set('host'), facets.hosts.map(([k, n]: [string, number]) => [k === '' ? '(none)' : k, `${k || '(none)'} (${num(n)})`]))}
          ${select('Source', filters.source, set('source'), SOURCES.map((s) => [s, s]))}
          ${select('Scope', filters.scope, set('scope'), SCOPES.map((s) => [s, s]))}
          ${select('Thread', filters.thread, set('thread'), facets.threads.map(([k, n]: [string, number]) => [k, `${k} (${num(n)})`]))}
          ${select('State', filters.state, set('state'), [['quarantined', 'quarantined'], ['expired', 'expired'], ['superseded', 'superseded']])}
          <label class="check"><input type="checkbox" checked=${filters.temporary} onChange=${set('temporary')} /> search temporary frames too</label>
          <button type="button" class="ghost" onClick=${() => (setFilters(NO_FILTERS), setQuery(''))}>Clear all</button>
        </div>
      </details>
      ${undo || notice
        ? html`<div class="notice" role="status">
            <span>${notice}</span>
            ${undo ? html`<button type="button" onClick=${doUndo} title="Ctrl+Z">Undo ${undo.label}</button>` : ''}
          </div>`
        : html`<div class="notice empty" role="status"></div>`}
      <div class="split ${openId !== null ? 'with-detail' : ''}">
        <div class="list-pane">
          <div class="count" aria-live="polite">
            ${error
              ? html`<span class="error">${error}</span>`
              : page
                ? html`${page.searched ? 'Matches' : 'Frames'} ${total ? `${num(offset + 1)}–${num(Math.min(offset + PAGE, total))}` : '0'} of ${num(total)}${page.capped ? ' (the best 1,000 hits)' : ''}
                    ${entry ? html` · <span class="muted">${entry.kind === 'view' ? `${entry.members.length ? entry.members.map(mindName).join(' + ') : 'no mind yet'} · ${entry.folder}` : entry.path} · ${bytes(entry.bytes)}</span>` : ''}`
                : 'Loading…'}
            ${busy ? html`<span class="muted"> · loading</span>` : ''}
          </div>
          <ol class="rows" ref=${listRef} aria-label="Frames">
            ${(page?.frames ?? []).map(
              (f: any) => html`<li key=${`${f.mind}:${f.id}`}>
                <button type="button" class="row ${isOpen(f) ? 'open' : ''}" aria-pressed=${isOpen(f)} onClick=${() => setOpen({ id: f.id, mind: f.mind ?? mind })}>
                  <span class="meta">
                    ${entry?.kind === 'view' ? html`<span class="badge mind">${mindName(f.mind)}</span>` : ''}
                    <span class="id">#${f.id}</span>
                    <span class="badge imp-${f.importance}">${f.importance}</span>
                    <span class="kind">${f.kind}</span>
                    ${f.quarantined ? html`<span class="badge warn">quarantined</span>` : ''}
                    ${f.supersededBy ? html`<span class="badge old">superseded by #${f.supersededBy}</span>` : ''}
                    ${f.expired ? html`<span class="badge old">expired</span>` : ''}
                    <span class="muted">${f.host || 'no host'} · ${when(f.createdAt)}</span>
                  </span>
                  <span class="content">${marked(f.content, f.marks)}${f.cut ? '…' : ''}</span>
                </button>
              </li>`,
            )}
          </ol>
          ${page && !page.frames.length && !error ? html`<p class="muted empty-list">${page.searched ? 'No frame matches this search with these filters.' : entry?.exists === false ? 'This mind has no file yet: nothing saved.' : 'No frame with these filters.'}</p>` : ''}
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>← Newer</button>
            <span class="muted">page ${num(Math.floor(offset / PAGE) + 1)} of ${num(Math.max(1, Math.ceil(total / PAGE)))}</span>
            <button type="button" disabled=${offset + PAGE >= total} onClick=${() => setOffset(offset + PAGE)}>Older →</button>
          </nav>
        </div>
        ${open !== null ? html`<${FrameDetail} key=${`${open.mind}:${open.id}-${detailKey}`} mind=${open.mind} id=${open.id} onClose=${() => setOpen(null)} onChanged=${after} onOpen=${(id: number) => setOpen({ id, mind: open.mind })} />` : ''}
      </div>
    </section>
  `;
}

/** A mind id as a row's badge says it: `personal`, or `workspace`. */
function mindName(id: string): string {
  return id.startsWith('workspace:') ? 'workspace' : id;
}

function select(label: string, value: string, onChange: (e: Event) => void, options: Array<[string, string]>) {
  return html`<label class="field">
    <span>${label}</span>
    <select value=${value} onChange=${onChange} aria-label=${label}>
      <option value="">any</option>
      ${options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
    </select>
  </label>`;
}

function FrameDetail(props: { mind: string; id: number; onClose: () => void; onChanged: (r: any) => void; onOpen: (id: number) => void }) {
  const [d, setD] = useState<any>(null);
  const [error, setError] = useState('');
  const [level, setLevel] = useState('');
  const [confirmForget, setConfirmForget] = useState(false);
  const head = useRef<HTMLHeadingElement>(null);
  const reload = () =>
    api(`/api/frames/${props.id}${qs({ mind: props.mind })}`).then(
      (r) => {
        setD(r);
        setLevel(r.frame.importance);
        setError('');
      },
      (e) => setError(e.message),
    );
  useEffect(() => {
    void reload().then(() => head.current?.focus());
  }, []);
  const act = async (path: string, body: Record<string, unknown>) => {
    try {
      const r = await api(`/api/frames/${props.id}/${path}`, { mind: props.mind, ...body });
      props.onChanged(r);
      if (path === 'forget') props.onClose();
      else await reload();
    } catch (e: any) {
      setError(e.message);
    }
  };
  const f = d?.frame;
  const prov = useMemo(
    () =>
      f
        ? [
            ['Host', f.host || '—'],
            ['Session', f.sessionId || '—'],
            ['Turn', f.turnId || '—'],
            ['Said', when(f.createdAt)],
            ['Saved', when(f.updatedAt)],
            ['Source', f.source],
            ['Scope', f.scope + (f.threadKey ? ` · thread ${f.threadKey}` : '') + (f.workspace ? ` · ${f.workspace}` : '')],
            ['Expires', f.expiresAt ? when(f.expiresAt) + (d.expired ? ' (expired)' : '') : 'never'],
            ...(f.tags.length ? [['Tags', f.tags.join(', ')]] : []),
            ...(f.redactions.length ? [['Redacted', f.redactions.join(', ')]] : []),
            ...(f.threats.length ? [['Threats', f.threats.join(', ')]] : []),
            ...(f.parts > 1 ? [['Part', `${f.part + 1} of ${f.parts}`]] : []),
          ]
        : [],
    [d],
  );
  return html`
    <aside class="detail" aria-labelledby="detail-h">
      <div class="detail-head">
        <h2 id="detail-h" tabindex="-1" ref=${head}>Frame #${props.id}</h2>
        <button type="button" class="ghost" onClick=${props.onClose} aria-label="Close the frame (Esc)">Close</button>
      </div>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      ${f
        ? html`
            <p class="meta">
              <span class="badge imp-${f.importance}">${f.importance}</span> <span class="kind">${f.kind}</span>
              ${f.quarantined ? html` <span class="badge warn">quarantined</span>` : ''}
              ${f.supersededBy ? html` <span class="badge old">superseded</span>` : ''}
            </p>
            <pre class="frame-text">${f.content}</pre>
            <h3>Provenance</h3>
            <dl class="prov">${prov.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
            <h3>Change</h3>
            <div class="actions">
              <label class="field">
                <span>Importance</span>
                <select aria-label="Importance" value=${level} onChange=${(e: Event) => setLevel((e.currentTarget as HTMLSelectElement).value)}>
                  ${IMPORTANCES.map((i) => html`<option value=${i}>${i}</option>`)}
                </select>
              </label>
              <button type="button" disabled=${level === f.importance} onClick=${() => act('importance', { importance: level })}>Set importance</button>
              ${f.quarantined
                ? html`<button type="button" onClick=${() => act('quarantine', { quarantined: false })}>Release from quarantine</button>`
                : html`<button type="button" onClick=${() => act('quarantine', { quarantined: true })}>Send to quarantine</button>`}
              ${confirmForget
                ? html`<span class="confirm">Forget #${f.id}${d.history.length ? ` and its ${d.history.length} older version(s)` : ''}?
                    <button type="button" class="danger" onClick=${() => act('forget', {})}>Forget</button>
                    <button type="button" class="ghost" onClick=${() => setConfirmForget(false)}>Keep</button></span>`
                : html`<button type="button" class="danger" onClick=${() => setConfirmForget(true)}>Forget…</button>`}
            </div>
            <h3>Supersede history</h3>
            ${d.newer.length
              ? html`<p>Replaced by ${d.newer.map((n: any, i: number) => html`${i ? ' → ' : ''}<button type="button" class="link" onClick=${() => props.onOpen(n.id)}>#${n.id}</button>`)}</p>`
              : ''}
            ${d.history.length
              ? html`<ol class="history">
                  ${d.history.map((h: any) => html`<li><span class="muted">#${h.id} · ${when(h.createdAt)} · ${h.importance}</span><div>${h.content}</div></li>`)}
                </ol>`
              : html`<p class="muted">${f.supersedes ? `Supersedes #${f.supersedes} (folded away or forgotten).` : 'No older version.'}</p>`}
          `
        : !error
          ? html`<p class="muted">Loading…</p>`
          : ''}
    </aside>
  `;
}
