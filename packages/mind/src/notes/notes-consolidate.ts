/** Making room in a notes file that a write would take over its limit (the `autoConsolidate` option). */
import { nearDuplicate, normalizeForHash } from '../text.js';
import { isPinned, renderEntries } from './notes-entries.js';
import { archiveRecord } from './notes-archive.js';
import type { NotesContext } from './notes-context.js';
import type { ArchiveRecord, NotesTarget } from './notes-types.js';

/**
 * Make room: (1) merge exact duplicates and near duplicates (normalized containment, or word-set
 * Jaccard similarity >= 0.8; the longer entry is kept), (2) evict the oldest entries that are not
 * pinned and not part of this write, until the file fits. Every removed entry is archived.
 */
export function consolidate(ctx: NotesContext, target: NotesTarget, path: string, entries: string[], limit: number, protectedEntries: Set<string>) {
  const archived: ArchiveRecord[] = [];
  const rec = (entry: string, reason: 'evicted' | 'merged', keptAs?: string) => archiveRecord(ctx, target, path, entry, reason, keptAs);
  let out = [...entries];
  let merged = 0;
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i]!;
      const b = out[j]!;
      const na = normalizeForHash(a);
      const nb = normalizeForHash(b);
      const near = na === nb || na.includes(nb) || nb.includes(na) || nearDuplicate(a, b);
      if (!near) continue;
      // keep the longer (more informative); on a tie keep the newer (j)
      const keepJ = b.length >= a.length;
      const drop = keepJ ? a : b;
      const keep = keepJ ? b : a;
      archived.push(rec(drop, 'merged', keep));
      merged++;
      if (keepJ) {
        out.splice(i, 1);
        i--;
        break;
      } else {
        out.splice(j, 1);
        j--;
      }
    }
  }
  let evicted = 0;
  while (renderEntries(out).length > limit) {
    const idx = out.findIndex((e) => !isPinned(e) && !protectedEntries.has(e));
    if (idx < 0) break;
    archived.push(rec(out[idx]!, 'evicted'));
    out.splice(idx, 1);
    evicted++;
  }
  return { entries: out, merged, evicted, archived };
}
