import { useEffect, useRef, useState } from 'preact/hooks';
import { api, qs } from './api.js';
import { html, num } from './html.js';

/**
 * Next session: for a host and a workspace, the exact text SessionStart would inject now (the
 * hook's own output), its tokens against the budget, and why each note entry and each frame is
 * in or out.
 */

export function NextView() {
  const [hosts, setHosts] = useState<string[]>([]);
  const [host, setHost] = useState(localStorage.getItem('hive-mind-next-host') ?? 'claude-code');
  const [known, setKnown] = useState<string[]>([]);
  const [workspace, setWorkspace] = useState(localStorage.getItem('hive-mind-next-ws') ?? '');
  const [r, setR] = useState<any>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // the workspace the first preview runs for: the last one previewed, else the first known mind's
  const [ready, setReady] = useState(false);
  useEffect(() => {
    api('/api/next/hosts').then((x) => setHosts(x.hosts));
    api('/api/minds').then(
      (x) => {
        const ws = x.minds.filter((m: any) => m.workspace).map((m: any) => m.workspace);
        setKnown(ws);
        if (!workspace && ws.length) setWorkspace(ws[0]);
        setReady(true);
      },
      () => setReady(true),
    );
  }, []);
  // the newest request wins: an earlier preview answering late never replaces a later one
  const latest = useRef(0);
  const run = async () => {
    if (!workspace.trim()) return;
    const mine = ++latest.current;
    localStorage.setItem('hive-mind-next-host', host);
    localStorage.setItem('hive-mind-next-ws', workspace);
    setBusy(true);
    try {
      const got = await api(`/api/next${qs({ host, workspace: workspace.trim() })}`);
      if (mine !== latest.current) return;
      setR(got);
      setError('');
    } catch (e: any) {
      if (mine !== latest.current) return;
      setError(e.message);
      setR(null);
    }
    setBusy(false);
  };
  // on open (once the known workspaces are in) and on a host change: no empty view until Preview
  useEffect(() => {
    if (ready) void run();
  }, [host, ready]);
  const over = r && r.tokens > r.budget;
  return html`
    <section class="view next" aria-labelledby="next-h">
      <div class="toolbar">
        <h1 id="next-h">Next session</h1>
        <label class="field"><span>Host</span>
          <select aria-label="Host" value=${host} onChange=${(e: Event) => setHost((e.currentTarget as HTMLSelectElement).value)}>
            ${hosts.map((h) => html`<option value=${h}>${h}</option>`)}
          </select>
        </label>
        <form class="search" onSubmit=${(e: Event) => (e.preventDefault(), void run())}>
          <label class="field grow"><span>Workspace (the session's working directory)</span>
            <input type="text" list="known-ws" aria-label="Workspace" value=${workspace} onInput=${(e: Event) => setWorkspace((e.currentTarget as HTMLInputElement).value)} placeholder="/path/to/project" />
          </label>
          <datalist id="known-ws">${known.map((w) => html`<option value=${w}></option>`)}</datalist>
          <button type="submit" disabled=${busy || !workspace.trim()}>Preview</button>
        </form>
      </div>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      ${r
        ? html`
            <p class="summary">
              <strong>${num(r.tokens)}</strong> of ${num(r.budget)} tokens (HIVE_MIND_RECALL_TOKENS), counted as the hooks count them
              ${over ? html` · <span class="error">over the budget</span>` : ''}
              · workspace ${r.workspace ?? '(none)'} · ${r.host} ${r.event}
            </p>
            ${r.note ? html`<p class="muted">${r.note}</p>` : ''}
            ${r.error ? html`<p class="error">The hook logged: ${r.error}</p>` : ''}
            <div class="cols">
              <div>
                <h2>What is injected</h2>
                ${r.injected ? html`<pre class="injected" tabindex="0" aria-label="Injected text">${r.injected}</pre>` : html`<p class="muted">Nothing: no note and no frame to recall.</p>`}
                <details>
                  <summary>The hook's exact output (stdout of <code>hive-mind hook ${r.host} ${r.event}</code>)</summary>
                  <pre class="hook-stdout" tabindex="0" aria-label="Hook output">${r.stdout}</pre>
                  <p class="muted">Payload given: <code>${JSON.stringify(r.payload)}</code>. The tag's 16-hex nonce is new at every injection.</p>
                </details>
              </div>
              <div>
                <h2>Why each item is in or out</h2>
                ${r.notes.map(
                  (n: any) => html`<h3>${n.file} <span class="muted mono">${n.path}</span></h3>
                    ${n.items.length ? html`<ul class="verdicts">${n.items.map((it: any) => verdict(it))}</ul>` : html`<p class="muted">No entry.</p>`}`,
                )}
                ${r.minds.map(
                  (m: any) => html`<h3>${m.label} mind <span class="muted mono">${m.path}</span></h3>
                    ${!m.exists ? html`<p class="muted">No file yet.</p>` : m.items.length ? html`<ul class="verdicts">${m.items.map((it: any) => verdict(it))}</ul>` : html`<p class="muted">No frame recall would consider.</p>`}
                    ${m.exists ? html`<p class="muted">Never recalled at session start: ${Object.entries(m.left).filter(([, n]) => (n as number) > 0).map(([k, n]) => `${num(n as number)} ${k}`).join(' · ') || 'none'}.</p>` : ''}`,
                )}
              </div>
            </div>
          `
        : busy
          ? html`<p class="muted">Running the hook…</p>`
          : html`<p class="muted">Pick a workspace to see what a session started there would be given.</p>`}
    </section>
  `;
}

function verdict(it: any) {
  return html`<li class=${it.in ? 'in' : 'out'}>
    <span class="badge ${it.in ? 'yes' : 'no'}">${it.in ? 'in' : 'out'}</span>
    ${it.id ? html`<span class="id">#${it.id}</span> <span class="badge imp-${it.importance}">${it.importance}</span> <span class="kind">${it.kind}</span>` : ''}
    <span class="muted">${num(it.tokens)} tokens · ${it.why}</span>
    <div class="verdict-text">${it.text.length > 240 ? it.text.slice(0, 239) + '…' : it.text}</div>
  </li>`;
}
