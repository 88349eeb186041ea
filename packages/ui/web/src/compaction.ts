import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure } from './api.js';
import { bytes, html, num, when } from './html.js';

/**
 * Compaction: open a session file (the hosts' own folders, or a path), see its size against a
 * window, where a compaction would cut, the checkpoint beside the span it replaces, each anchor
 * kept or re-inserted; write the compacted file (beside it, or in place with a backup).
 */

export function CompactionView() {
  const [sessions, setSessions] = useState<any[]>([]);
  const [path, setPath] = useState(localStorage.getItem('hive-mind-compaction-path') ?? '');
  const [win, setWin] = useState('');
  const [p, setP] = useState<any>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<any>(null);
  const [confirmInPlace, setConfirmInPlace] = useState(false);
  // a host writing the session refused the in-place write: its reason, and "Compact anyway" when it can be forced
  const [refused, setRefused] = useState<{ message: string; forcible: boolean } | null>(null);
  // on open: the file opened last, else the newest session in the hosts' folders, so the view is never empty until Open
  useEffect(() => {
    api('/api/sessions').then(
      (r) => {
        setSessions(r.sessions);
        const first = path.trim() || r.sessions.find((s: any) => !s.problem)?.path;
        if (first) {
          setPath(first);
          void open(first);
        }
      },
      () => {
        setSessions([]);
        if (path.trim()) void open(path);
      },
    );
  }, []);
  const open = async (which = path) => {
    if (!which.trim()) return;
    localStorage.setItem('hive-mind-compaction-path', which.trim());
    setBusy(true);
    setWritten(null);
    setConfirmInPlace(false);
    setRefused(null);
    try {
      setP(await api('/api/compaction/preview', { path: which.trim(), ...(win.trim() ? { window: Number(win) } : {}) }));
      setError('');
    } catch (e: any) {
      setError(e.message);
      setP(null);
    }
    setBusy(false);
  };
  const write = async (inPlace: boolean, force = false) => {
    try {
      const w = await api('/api/compaction/write', { path: p.path, inPlace, ...(force ? { force: true } : {}), ...(win.trim() ? { window: Number(win) } : {}) });
      // in place, the file changed: the preview is of what it holds now (the figures after, the next cut if any)
      if (inPlace) setP(await api('/api/compaction/preview', { path: p.path, ...(win.trim() ? { window: Number(win) } : {}) }));
      setWritten(w);
      setError('');
      setRefused(null);
      setConfirmInPlace(false);
    } catch (e: any) {
      const r = e instanceof ApiFailure ? (e.body as any)?.refusal : undefined;
      if (r) {
        setRefused(r);
        setError('');
      } else setError(e.message);
    }
  };
  const span = p ? p.nodes.filter((n: any) => n.zone === 'span') : [];
  return html`
    <section class="view compaction" aria-labelledby="compaction-h">
      <div class="toolbar">
        <h1 id="compaction-h">Compaction</h1>
        <form class="search" onSubmit=${(e: Event) => (e.preventDefault(), void open())}>
          <label class="field grow"><span>Session file (absolute path)</span>
            <input type="text" aria-label="Session file" list="sessions" value=${path} onInput=${(e: Event) => setPath((e.currentTarget as HTMLInputElement).value)} placeholder="~/.claude/projects/…/session.jsonl" />
          </label>
          <datalist id="sessions">${sessions.map((s) => html`<option value=${s.path}>${s.host} · ${s.cwd ?? ''} · ${when(s.mtime)}</option>`)}</datalist>
          <label class="field window"><span>Window (tokens)</span>
            <input type="number" aria-label="Window" min="1000" step="1000" value=${win} placeholder="from the file, else 200000" onInput=${(e: Event) => setWin((e.currentTarget as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled=${busy || !path.trim()}>${busy ? 'Opening…' : 'Open'}</button>
        </form>
      </div>
      ${sessions.length
        ? html`<details class="sessions"><summary>Sessions in the hosts' folders (${sessions.length})</summary>
            <ul>${sessions.slice(0, 30).map((s) => html`<li><button type="button" class="link" onClick=${() => (setPath(s.path), void open(s.path))}>${s.host} · ${s.cwd ?? s.id}</button> <span class="muted">${when(s.mtime)} · ${bytes(s.size)}</span></li>`)}</ul>
          </details>`
        : ''}
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      ${p ? preview(p, span, written, confirmInPlace, setConfirmInPlace, write, refused) : ''}
    </section>
  `;
}

function preview(p: any, span: any[], written: any, confirmInPlace: boolean, setConfirmInPlace: (v: boolean) => void, write: (inPlace: boolean, force?: boolean) => void, refused: { message: string; forcible: boolean } | null) {
  const pct = (n: number) => Math.round((n / p.window) * 100);
  return html`
    <p class="summary">
      <span class="mono">${p.path}</span> · ${p.format}${p.model ? ` · ${p.model}` : ''}${p.session ? html` · ${p.session.host} session <span class="mono">${p.session.id}</span>` : ''}
    </p>
    ${p.session?.refusal && !written ? html`<p class="warn-text">Compacting it in place is refused now: ${p.session.refusal.message}</p>` : ''}
    <div class="gauge" role="img" aria-label=${`${num(p.tokensBefore)} tokens of a ${num(p.window)}-token window; the budget is ${num(p.budget)}`}>
      <span class="fill ${p.tokensBefore > p.budget ? 'over' : ''}" style=${{ width: `${Math.min(100, pct(p.tokensBefore))}%` }}></span>
      <span class="budget-line" style=${{ left: `${pct(p.budget)}%` }}></span>
    </div>
    <p>
      <strong>${num(p.tokensBefore)}</strong> tokens of a ${num(p.window)}-token window (${pct(p.tokensBefore)}%); budget ${num(p.budget)} (80%)${p.toolTokens ? `, of which ${num(p.toolTokens)} go to the tool definitions the file records` : ''}.
      ${p.compacted
        ? html` A compaction replaces <strong>${span.length}</strong> messages (${num(p.shadowedTokens)} tokens) with a ${num(p.summaryTokens)}-token checkpoint: <strong>${num(p.tokensBefore)} → ${num(p.tokensAfter)}</strong> tokens.`
        : html` <strong>Nothing to compact</strong>: ${p.noopReason === 'under-budget' ? 'the session is under the budget' : 'no span can be cut at a balanced point'}. Lower the window to see where a compaction would cut.`}
    </p>
    ${written ? writtenView(p, written) : ''}
    ${p.compacted
      ? html`
          <div class="write">
            <button type="button" onClick=${() => write(false)}>Write ${p.defaultOut.split('/').pop()}</button>
            ${confirmInPlace
              ? html`<span class="confirm">Replace the session file? A backup is kept beside it first.
                  <button type="button" class="danger" onClick=${() => write(true)}>Compact in place</button>
                  <button type="button" class="ghost" onClick=${() => setConfirmInPlace(false)}>Cancel</button></span>`
              : html`<button type="button" class="ghost" onClick=${() => setConfirmInPlace(true)}>Compact in place…</button>`}
          </div>
          ${refused
            ? html`<div class="error" role="alert"><p>Not compacted: ${refused.message}</p>
                ${refused.forcible ? html`<button type="button" class="danger" onClick=${() => write(true, true)}>Compact anyway</button> <span class="muted">(what the host writes after this is only in the backup)</span>` : ''}</div>`
            : ''}
          <div class="cols">
            <div>
              <h2>The span it replaces (${span.length} messages)</h2>
              <ol class="nodes">${span.map((n: any) => node(n))}</ol>
            </div>
            <div>
              <h2>The checkpoint</h2>
              <pre class="checkpoint" tabindex="0" aria-label="Checkpoint text">${p.checkpoint}</pre>
              <h3>Anchors (${p.anchorCounts.total}: ${p.anchorCounts.kept} kept by the summary, ${p.anchorCounts.reinserted} re-inserted)</h3>
              <ul class="anchors">${p.anchors.map((a: any) => html`<li><span class="badge ${a.state === 'kept' ? 'yes' : a.state === 'reinserted' ? 'warn' : 'no'}">${a.state === 'reinserted' ? 're-inserted' : a.state}</span> <span class="muted">${a.kind}</span> ${a.text}</li>`)}</ul>
            </div>
          </div>`
      : ''}
    <h2>The surface, and where it is cut</h2>
    <ol class="nodes all" tabindex="0" aria-label="Surface messages">${p.nodes.map((n: any, i: number) => html`${i > 0 && p.nodes[i - 1].zone !== n.zone ? html`<li class="cut" aria-label="cut">${n.zone === 'tail' ? '✂ cut: the retained tail starts here' : '✂ cut: the span replaced starts here'}</li>` : ''}${node(n)}`)}</ol>
  `;
}

/** What a write did: the file, the backup and the record `hive-mind compact --undo` reads, what the retention rule removed. */
function writtenView(p: any, w: any) {
  return html`<div class="written" role="status">
    <p class="ok">Wrote ${w.written} (${num(w.tokensBefore)} → ${num(w.tokensAfter)} tokens)${w.backup ? html`; the original is kept as <span class="mono">${w.backup}</span>` : ''}.</p>
    ${w.record ? html`<p>Recorded as the compaction at ${w.record.at} (${w.record.summarizer}); undo it: <code>${w.undo}</code></p>` : ''}
    ${w.recordProblem ? html`<p class="warn-text">${w.recordProblem} (to restore by hand: <code>cp ${w.backup} ${p.path}</code>)</p>` : ''}
    ${w.pruned?.removed.length ? html`<p>Removed ${w.pruned.removed.length} older backup${w.pruned.removed.length > 1 ? 's' : ''} (the newest ${w.pruned.keep} compactions keep theirs, <code>HIVE_MIND_COMPACT_KEEP_BACKUPS</code>): ${w.pruned.removed.map((r: any) => html`<span class="mono">${r.path}</span> `)}</p>` : ''}
    ${(w.pruned?.spared ?? []).map((x: any) => html`<p>Kept <span class="mono">${x.path}</span>: ${x.reason}</p>`)}
    ${w.session ? html`<p>Resume it: <code>${w.session.resume}</code></p>` : ''}
  </div>`;
}

function node(n: any) {
  return html`<li class=${`node ${n.zone}`}>
    <span class="meta"><span class="id">seq ${n.seq}</span> <span class="kind">${n.role}</span> <span class="muted">${num(n.tokens)} tokens · ${n.zone === 'span' ? 'replaced' : n.zone === 'head' ? 'kept (leading)' : 'kept'}</span></span>
    <div class="node-text">${n.text}${n.cut ? '…' : ''}</div>
  </li>`;
}
