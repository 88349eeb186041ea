import { h } from 'preact';
import htm from 'htm';

/** Tagged templates over preact's `h` (no JSX compile step). */
export const html = htm.bind(h);

/** `text` with the half-open ranges `marks` wrapped in `<mark>`. */
export function marked(text: string, marks: Array<[number, number]> = []) {
  if (!marks.length) return text;
  const out: unknown[] = [];
  let at = 0;
  for (const [s, e] of marks) {
    if (s >= text.length) break;
    if (s > at) out.push(text.slice(at, s));
    out.push(html`<mark>${text.slice(s, Math.min(e, text.length))}</mark>`);
    at = Math.min(e, text.length);
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** A number with thousands separators. */
export const num = (n: number) => n.toLocaleString('en-US');

/** `2026-12-01 10:32` from an ISO time (UTC). */
export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : '—');

/** Bytes as B / KiB / MiB. */
export const bytes = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);
