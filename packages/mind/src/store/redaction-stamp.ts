/**
 * The redaction stamp of a .mind file: the `meta` row {@link REDACTION_STAMP_KEY}, present only while
 * every frame's content in the file went through the maintained rule set of that stamp
 * (secret-preset.ts `presetStamp`, e.g. `12.0.0+1`) on its way in. Reads (recall, the per-prompt
 * evidence) redact stored text again before it is given to a model; with the current stamp they skip
 * the preset's second pass (its module alone costs a hook process tens of milliseconds), while the
 * context rules and the entropy layer still run.
 *
 * A new file is stamped when its schema is made (migration v8 -> v9, on a file without frames); a
 * file with frames from before v9 has no stamp and is redacted in full on every read. A save by a
 * process whose stamp differs (an upgraded preset) removes the row, so the file reads in full from
 * then on. Older hive-mind versions cannot write a v9 file (they refuse a newer schema), so none
 * can add frames behind the stamp. The row's key is {@link REDACTION_STAMP_KEY} (schema.ts).
 */
import { presetStamp } from '../safety/redact.js';
import type { StoreContext } from './context.js';
import { REDACTION_STAMP_KEY } from './schema.js';

export { REDACTION_STAMP_KEY };

const known = new WeakMap<StoreContext, boolean>();

/** Whether stored text read from this file may skip the preset (the file carries the current stamp). Read once per connection. */
export function presetDone(ctx: StoreContext): boolean {
  let ok = known.get(ctx);
  if (ok === undefined) {
    const row = ctx.guard(() => ctx.stmt('SELECT value FROM meta WHERE key = ?').get(REDACTION_STAMP_KEY)) as { value: string } | undefined;
    ok = row?.value === presetStamp();
    known.set(ctx, ok);
  }
  return ok;
}

/**
 * Inside a save's transaction: a file stamped by another rule set loses its stamp (its frames now
 * went through two). Nothing changes on a file with the current stamp or with none.
 */
export function keepStampHonest(ctx: StoreContext): void {
  if (known.get(ctx) === true) return;
  const row = ctx.stmt('SELECT value FROM meta WHERE key = ?').get(REDACTION_STAMP_KEY) as { value: string } | undefined;
  const current = row?.value === presetStamp();
  if (row && !current) ctx.stmt('DELETE FROM meta WHERE key = ?').run(REDACTION_STAMP_KEY);
  known.set(ctx, current);
}
