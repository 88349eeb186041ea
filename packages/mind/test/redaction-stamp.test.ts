import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Mind, presetStamp } from '@hive-mind/mind';
import { REDACTION_STAMP_KEY } from '../src/store/redaction-stamp.js';
import { PRESET_CASES } from './secrets.js';
import { tmp } from './helpers.js';

let t: ReturnType<typeof tmp>;
let path: string;
beforeEach(() => {
  t = tmp();
  path = join(t.dir, 'personal.mind');
});
afterEach(() => t.cleanup());

// a format only the maintained rule set (secretlint's preset) knows: the context rules keep it
const shopify = PRESET_CASES.find((c) => c.rule.endsWith('-shopify'))!;
const stamp = (p: string) => {
  const db = new Database(p, { readonly: true });
  try {
    return (db.prepare('SELECT value FROM meta WHERE key = ?').get(REDACTION_STAMP_KEY) as { value: string } | undefined)?.value;
  } finally {
    db.close();
  }
};
/** Put `content` into frame `id` behind the save pipeline's back, as a file written before a rule existed holds it. */
const storeVerbatim = (p: string, id: number, content: string) => {
  const db = new Database(p);
  db.prepare('UPDATE frames SET content = ? WHERE id = ?').run(content, id);
  db.close();
};

describe('the redaction stamp (reads skip the preset only where every frame went through it)', () => {
  it('a new file carries the current stamp, and a save keeps it', () => {
    const m = Mind.open(path);
    m.save({ content: 'The build uses pnpm 9 in this repo', kind: 'fact', importance: 'important' });
    m.close();
    expect(stamp(path)).toBe(presetStamp());
    expect(presetStamp()).toMatch(/^\d+\.\d+\.\d+\+\d+$/);
  });

  it('a file without the stamp (frames from before it) is redacted in full when read: recall and the per-prompt evidence', () => {
    const m = Mind.open(path);
    const id = m.save({ content: 'The shop admin token lives in the vault, ask before using it', kind: 'fact', importance: 'important' }).id;
    m.close();
    const db = new Database(path);
    db.prepare('DELETE FROM meta WHERE key = ?').run(REDACTION_STAMP_KEY);
    db.close();
    storeVerbatim(path, id, `The shop admin token is ${shopify.secret}, ask before using it`);
    const ro = Mind.open(path, { readonly: true });
    const recalled = ro.recall({ budgetTokens: 1500 });
    expect(recalled.text).toContain('[REDACTED:shopify]');
    expect(recalled.text).not.toContain(shopify.secret);
    const evidence = ro.promptEvidence('where is the shop admin token?');
    expect(evidence.length).toBeGreaterThan(0);
    // what is given to the model: the rendered line and its texts
    for (const e of evidence) expect(JSON.stringify([e.line, e.texts])).not.toContain(shopify.secret);
    expect(evidence[0]!.line).toContain('[REDACTED:shopify]');
    ro.close();
  });

  it('a save by another rule set (an upgraded preset) removes the stamp; so does nothing else', () => {
    Mind.open(path).close();
    const db = new Database(path);
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run('0.0.1+1', REDACTION_STAMP_KEY);
    db.close();
    const ro = Mind.open(path, { readonly: true });
    ro.recall({ budgetTokens: 100 });
    ro.close();
    expect(stamp(path)).toBe('0.0.1+1');
    const m = Mind.open(path);
    m.saveMany([{ content: 'The deploy runs from the release branch' }]);
    m.close();
    expect(stamp(path)).toBeUndefined();
  });

  it('the context rules still run on stamped text: a rule added since a frame was stored applies when it is read', () => {
    const m = Mind.open(path);
    const id = m.save({ content: 'The staging password is kept in the team vault', kind: 'fact', importance: 'important' }).id;
    m.close();
    expect(stamp(path)).toBe(presetStamp());
    storeVerbatim(path, id, 'The staging config sets PASSWORD=hunter2-Zq81vXk3pL0w in .env');
    const ro = Mind.open(path, { readonly: true });
    const text = ro.recall({ budgetTokens: 1500 }).text;
    ro.close();
    expect(text).toContain('PASSWORD=');
    expect(text).not.toContain('hunter2-Zq81vXk3pL0w');
  });
});
