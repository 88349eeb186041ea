import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { html, num, when } from './html.js';

/**
 * Notes: USER.md and each MEMORY.md with a usage bar against its limit and the entries with their
 * sizes; edit, add, remove, pin/unpin, archive (a remove that keeps the entry restorable) and
 * restore. Writes go through the same `Notes` rules as the CLI and the MCP tool: a write over the
 * limit is refused and the result is shown (usage, the overflow, the entries by size, the pending
 * frame that keeps the fact, and the consolidation on offer).
 */

export function NotesView() {
  const [files, setFiles] = useState<any[]>([]);
  const [error, setError] = useState('');
  const load = () => api('/api/notes').then((r) => (setFiles(r.files), setError('')), (e) => setError(e.message));
  useEffect(() => void load(), []);
  const replaceFile = (f: any) => setFiles((fs) => fs.map((x) => (x.key === f.key ? f : x)));
  return html`
    <section class="view notes" aria-labelledby="notes-h">
      <div class="toolbar"><h1 id="notes-h">Notes</h1><span class="muted">USER.md and MEMORY.md: what every session is given first, within hard character limits.</span></div>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      ${files.map((f) => html`<${NotesFile} key=${f.key} file=${f} onFile=${replaceFile} />`)}
    </section>
  `;
}

function UsageBar(props: { usage: any; limit: number; id: string }) {
  const pct = Math.min(100, Math.round((props.usage.chars / props.limit) * 100));
  const over = props.usage.chars > props.limit;
  return html`<div class="usage">
    <div class="bar ${over ? 'over' : pct >= 85 ? 'high' : ''}" role="meter" aria-valuemin="0" aria-valuemax=${props.limit} aria-valuenow=${props.usage.chars} aria-labelledby=${props.id}>
      <span style=${{ width: `${pct}%` }}></span>
    </div>
    <span id=${props.id} class="usage-text">${num(props.usage.chars)} / ${num(props.limit)} characters (${props.usage.percent}%) · ~${num(props.usage.tokens)} tokens · ${props.usage.entries} entr${props.usage.entries === 1 ? 'y' : 'ies'}${over ? ' · OVER THE LIMIT' : ''}</span>
  </div>`;
}

function NotesFile(props: { file: any; onFile: (f: any) => void }) {
  const f = props.file;
  const st = f.state;
  const [adding, setAdding] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const [result, setResult] = useState<any>(null);
  const [last, setLast] = useState<any>(null);
  const write = async (body: Record<string, unknown>) => {
    try {
      const r = await api('/api/notes', { file: f.key, expectedVersion: st.version, ...body });
      setResult(r.result);
      setLast(body);
      if (r.file) props.onFile(r.file);
      if (r.result.ok) {
        setEditing(null);
        if (body.op === 'add') setAdding('');
      }
      return r.result;
    } catch (e: any) {
      setResult({ ok: false, reason: 'error', message: e.message });
    }
  };
  const idBase = `n-${f.key.replace(/[^a-z0-9]/gi, '-')}`;
  return html`
    <article class="notes-file" aria-labelledby=${`${idBase}-h`}>
      <header>
        <h2 id=${`${idBase}-h`}>${f.label}</h2>
        <span class="muted mono">${st.path}${st.exists ? '' : ' (no file yet)'}</span>
      </header>
      <${UsageBar} usage=${st.usage} limit=${st.limit} id=${`${idBase}-u`} />
      ${st.warning ? html`<p class="warn-text">${st.warning}</p>` : ''}
      <ol class="entries">
        ${st.entries.map(
          (e: string, i: number) => html`<li class="entry ${f.pinned[i] ? 'pinned' : ''}">
            ${editing === i
              ? html`<label class="sr-only" for=${`${idBase}-e${i}`}>Edit entry ${i + 1}</label>
                  <textarea id=${`${idBase}-e${i}`} value=${draft} onInput=${(ev: Event) => setDraft((ev.currentTarget as HTMLTextAreaElement).value)}></textarea>
                  <div class="entry-actions">
                    <span class="muted">${num(draft.length)} characters</span>
                    <button type="button" onClick=${() => write({ op: 'replace', old: e, content: draft })}>Save</button>
                    <button type="button" class="ghost" onClick=${() => setEditing(null)}>Cancel</button>
                  </div>`
              : html`<div class="entry-text">${f.pinned[i] ? html`<span class="badge pin">pinned</span> ` : ''}${e}</div>
                  <div class="entry-actions">
                    <span class="muted">${num(e.length)} characters</span>
                    <button type="button" class="ghost" onClick=${() => (setEditing(i), setDraft(e))} aria-label=${`Edit entry ${i + 1}`}>Edit</button>
                    <button type="button" class="ghost" onClick=${() => write({ op: f.pinned[i] ? 'unpin' : 'pin', old: e })} aria-label=${`${f.pinned[i] ? 'Unpin' : 'Pin'} entry ${i + 1}`}>${f.pinned[i] ? 'Unpin' : 'Pin'}</button>
                    <button type="button" class="ghost" onClick=${() => write({ op: 'archive', old: e })} aria-label=${`Archive entry ${i + 1}`}>Archive</button>
                    <button type="button" class="danger" onClick=${() => write({ op: 'remove', old: e })} aria-label=${`Remove entry ${i + 1}`}>Remove</button>
                  </div>`}
          </li>`,
        )}
      </ol>
      ${!st.entries.length ? html`<p class="muted">No entry yet.</p>` : ''}
      <form class="add" onSubmit=${(ev: Event) => (ev.preventDefault(), adding.trim() && write({ op: 'add', content: adding }))}>
        <label class="field grow">
          <span>New entry for ${f.label}</span>
          <textarea value=${adding} onInput=${(ev: Event) => setAdding((ev.currentTarget as HTMLTextAreaElement).value)} placeholder="One fact, preference or instruction"></textarea>
        </label>
        <div class="entry-actions"><span class="muted">${num(adding.length)} characters</span><button type="submit" disabled=${!adding.trim()}>Add</button></div>
      </form>
      ${result ? html`<${WriteResult} result=${result} onConsolidate=${last?.op === 'add' || last?.op === 'replace' || last?.op === 'restore' ? () => write({ ...last, autoConsolidate: true }) : undefined} />` : ''}
      ${f.archive.length
        ? html`<details class="archive">
            <summary>Archive (${f.archive.length}): entries removed by consolidation or archived here, restorable</summary>
            <ol>
              ${f.archive.map(
                (a: any) => html`<li>
                  <span class="muted">${when(a.ts)} · ${a.reason}${a.keptAs ? ` into “${a.keptAs}”` : ''}</span>
                  <div class="entry-text">${a.entry}</div>
                  <button type="button" class="ghost" onClick=${() => write({ op: 'restore', id: a.id })} aria-label=${`Restore archived entry ${a.id}`}>Restore</button>
                </li>`,
              )}
            </ol>
          </details>`
        : ''}
    </article>
  `;
}

/** The typed result of a write, for a person: what happened, and on a refusal what can be done. */
function WriteResult(props: { result: any; onConsolidate?: () => void }) {
  const r = props.result;
  if (r.ok)
    return html`<div class="result ok" role="status">
      <strong>${r.message}</strong>${r.warning ? html`<p class="warn-text">${r.warning}</p>` : ''}
      ${r.consolidated ? html`<p>Consolidation merged ${r.consolidated.merged} and evicted ${r.consolidated.evicted} entr${r.consolidated.evicted === 1 ? 'y' : 'ies'}; they are in the archive below.</p>` : ''}
      ${r.duplicates?.length ? html`<p>Already there: “${r.duplicates[0].preview}”.</p>` : ''}
    </div>`;
  return html`<div class="result refused" role="alert">
    <strong>Not written${r.reason ? ` (${r.reason.replace('_', ' ')})` : ''}.</strong>
    <p>${r.message}</p>
    ${r.reason === 'over_limit'
      ? html`<p>
            It would be <strong>${num(r.usage.chars)}</strong> of ${num(r.limit)} characters: <strong>${num(r.overflowBy)} over</strong>.
            ${r.entryTooLarge ? ` This entry alone is ${num(r.entryTooLarge.chars)} characters: write a shorter one.` : ' Make room by removing, archiving or shortening entries (sizes below), or let consolidation do it.'}
          </p>
          <table class="sizes">
            <caption class="sr-only">Entries by size</caption>
            <thead><tr><th scope="col">entry</th><th scope="col">characters</th><th scope="col">starts with</th></tr></thead>
            <tbody>${[...r.entries].sort((a: any, b: any) => b.chars - a.chars).map((e: any) => html`<tr><td>${e.index + 1}</td><td>${num(e.chars)}</td><td>${e.preview}</td></tr>`)}</tbody>
          </table>
          ${!r.entryTooLarge && props.onConsolidate
            ? html`<p><button type="button" onClick=${props.onConsolidate}>Write it with consolidation</button> <span class="muted">merges near-duplicates and moves the oldest unpinned entries to the archive (restorable) until it fits.</span></p>`
            : ''}`
      : ''}
    ${r.candidates?.length ? html`<p>Entries it could mean: ${r.candidates.map((c: any) => `#${c.index + 1} “${c.preview}”`).join(', ')}</p>` : ''}
    ${r.pendingFrameId !== undefined ? html`<p>The fact is not lost: it was kept in the personal mind as pending frame <strong>#${r.pendingFrameId}</strong> (recalled as a pending note until it is curated).</p>` : ''}
  </div>`;
}
