import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchChromium } from '../../../test-support/chromium.js';
import { CC_ID, homeWithSessions } from '../../transcripts/test/session-homes.js';
import { cli, requireBuilt, shotPath, startUi, type RunningUi } from './helpers.js';

// A compaction made from the page is the CLI's: the same backup name, the same record in
// `<file>.hive-mind-compactions` (so `hive-mind compact --undo --session ID` undoes it and
// `hive-mind sessions` counts it), the same refusal of a session a host is writing, the same
// retention rule. Real Claude Code session files in a temporary home; the real `hive-mind ui`
// process and the real CLI as child processes.

const roots: string[] = [];
const uis: RunningUi[] = [];
afterAll(async () => {
  for (const u of uis.splice(0)) await u.stop();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const BACKUP = /\.hive-mind-backup-\d{8}T\d{9}Z(-\d+)?$/;

/** A home with real sessions and a `hive-mind ui` serving it (HOME points the hosts' folders there). */
async function setup(env: NodeJS.ProcessEnv = {}) {
  requireBuilt();
  const h = homeWithSessions(roots);
  const hm = join(h.root, 'hive-mind');
  const hostEnv = { HOME: h.home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined, HERMES_HOME: undefined, HIVE_MIND_COMPACT_KEEP_BACKUPS: undefined, ...env };
  const ui = await startUi(hm, hostEnv);
  uis.push(ui);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${ui.origin}${path}`, { method: 'POST', headers: { 'x-hive-mind-token': ui.token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const run = (args: string[]) => cli(hm, args, undefined, hostEnv);
  return { ...h, hm, ui, post, run, hostEnv };
}

/**
 * A host's write a moment ago, as its modification time says; set 30 s ahead so that it still
 * reads as recent (less than 10 s old) however slowly the machine runs the next steps.
 */
function justWritten(file: string): void {
  const t = new Date(Date.now() + 30_000);
  utimesSync(file, t, t);
}

const backupsOf = (file: string) => readdirSync(dirname(file)).filter((n) => n.startsWith(`${file.slice(file.lastIndexOf('/') + 1)}.hive-mind-backup-`)).sort();
const records = (file: string) => readFileSync(`${file}.hive-mind-compactions`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('a compaction from the page is recorded as the CLI records it', () => {
  it('in place through the HTTP API: the record (tokens before/after), the backup name; sessions counts it; compact --undo --session restores the original byte for byte', async () => {
    const h = await setup();
    const original = readFileSync(h.cc);
    const preview = await h.post('/api/compaction/preview', { path: h.cc, window: 15000 });
    expect(preview.status).toBe(200);
    expect(preview.body.session).toMatchObject({ host: 'claude-code', id: CC_ID, refusal: null });
    const w = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    expect(w.body.tokensBefore).toBe(preview.body.tokensBefore);
    expect(w.body.tokensAfter).toBe(preview.body.tokensAfter);
    expect(w.body.tokensAfter).toBeLessThan(w.body.tokensBefore);
    expect(w.body.backup).toMatch(BACKUP);
    expect(w.body.backup.startsWith(`${h.cc}.hive-mind-backup-`)).toBe(true);
    expect(sha(readFileSync(w.body.backup))).toBe(sha(original));
    expect(w.body.undo).toBe(`hive-mind compact --undo --session ${CC_ID} --host claude-code`);
    const compacted = readFileSync(h.cc);
    const [rec, ...more] = records(h.cc);
    expect(more).toEqual([]);
    expect(rec).toEqual(w.body.record);
    expect(rec).toMatchObject({
      backup: w.body.backup,
      before: { sha256: sha(original), size: original.length },
      after: { sha256: sha(compacted), size: compacted.length },
      tokensBefore: w.body.tokensBefore,
      tokensAfter: w.body.tokensAfter,
      summarizer: 'extractive',
      action: 'summarize',
    });
    // the same figures as the CLI's own dry run of this file at this window
    const dry = JSON.parse(h.run(['compact', w.body.backup, '--window', '15000', '--dry-run', '--json']).stdout);
    expect([dry.tokensBefore, dry.tokensAfter]).toEqual([rec.tokensBefore, rec.tokensAfter]);

    // `hive-mind sessions`: the compaction counted, and the fresh write is known to be ours (not "in use")
    const listed = h.run(['sessions', '--json', '--cwd', h.cwd]);
    expect(listed.status, listed.stderr).toBe(0);
    const row = JSON.parse(listed.stdout).find((r: { id: string }) => r.id === CC_ID);
    expect(row).toMatchObject({ compactions: { ours: 1, host: 0 }, busy: null });
    const status = JSON.parse(h.run(['status', '--json']).stdout);
    const st = status.sessions.find((s: { id: string }) => s.id === CC_ID);
    expect(st.compactions.ours).toBe(1);
    expect(st.lastCompaction).toMatchObject({ at: rec.at, tokensBefore: rec.tokensBefore, tokensAfter: rec.tokensAfter });

    // undo from the CLI, a real child process
    const undo = h.run(['compact', '--undo', '--session', CC_ID]);
    expect(undo.status, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`undid the compaction of ${h.cc} made at ${rec.at} (${rec.tokensBefore} -> ${rec.tokensAfter} tokens, summarize with extractive): the file is back to its ${original.length} bytes from before it (from ${rec.backup})`);
    expect(sha(readFileSync(h.cc))).toBe(sha(original));
  });

  it('refuses a session a host is writing (a write in the last seconds, a Claude Code process holding it) unless forced; nothing is written', async () => {
    const h = await setup();
    const original = readFileSync(h.cc);
    justWritten(h.cc);
    const busy = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true });
    expect(busy.status).toBe(409);
    expect(busy.body.refusal).toEqual({ message: busy.body.error, forcible: true });
    expect(busy.body.error).toMatch(new RegExp(`^Claude Code session ${CC_ID} is being written right now: it was written \\d+ s ago \\(less than 10 s\\)`));
    expect((await h.post('/api/compaction/preview', { path: h.cc, window: 15000 })).body.session.refusal).toMatchObject({ forcible: true });
    // the CLI refuses it with the same words
    const cliBusy = h.run(['compact', '--session', CC_ID, '--window', '15000']);
    expect(cliBusy.status).toBe(2);
    const secs = (m: string) => m.replace(/written \d+ s ago/, 'written N s ago');
    expect(secs(cliBusy.stderr)).toBe(`hive-mind: ${secs(busy.body.error)}\n`);
    expect(readFileSync(h.cc).equals(original)).toBe(true);
    expect(backupsOf(h.cc)).toEqual([]);
    expect(existsSync(`${h.cc}.hive-mind-compactions`)).toBe(false);
    // written beside it, the session is not touched: no check
    expect((await h.post('/api/compaction/write', { path: h.cc, window: 15000 })).status).toBe(200);

    // a live Claude Code process naming the session (its <config dir>/sessions/<pid>.json)
    utimesSync(h.cc, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const lockDir = join(h.home, '.claude', 'sessions');
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(join(lockDir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: CC_ID, cwd: h.cwd }));
    const locked = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toContain(`Claude Code process ${process.pid} has it open (${join(lockDir, `${process.pid}.json`)})`);
    expect(readFileSync(h.cc).equals(original)).toBe(true);

    const forced = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true, force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(records(h.cc)).toHaveLength(1);
    expect(sha(readFileSync(forced.body.backup))).toBe(sha(original));
  });

  it('applies the retention rule (HIVE_MIND_COMPACT_KEEP_BACKUPS) after each recorded compaction; --undo walks back as far as the backups kept', async () => {
    const h = await setup({ HIVE_MIND_COMPACT_KEEP_BACKUPS: '1' });
    const original = readFileSync(h.cc);
    const a = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.pruned).toEqual({ keep: 1, removed: [], spared: [] });
    const afterA = readFileSync(h.cc);
    // the file is the bytes our compaction wrote a moment ago: not a host's write, so not refused
    const b = await h.post('/api/compaction/write', { path: h.cc, window: 6000, inPlace: true });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.pruned.removed).toEqual([{ path: a.body.backup, bytes: original.length, at: a.body.record.at }]);
    expect(existsSync(a.body.backup)).toBe(false);
    expect(backupsOf(h.cc)).toEqual([b.body.backup.slice(b.body.backup.lastIndexOf('/') + 1)]);
    expect(records(h.cc).map((r) => [r.backup, typeof r.pruned])).toEqual([
      [a.body.backup, 'string'],
      [b.body.backup, 'undefined'],
    ]);
    const u1 = h.run(['compact', '--undo', '--session', CC_ID]);
    expect(u1.status, u1.stderr).toBe(0);
    expect(u1.stdout).toContain(`made at ${b.body.record.at} (${b.body.tokensBefore} -> ${b.body.tokensAfter} tokens`);
    expect(sha(readFileSync(h.cc))).toBe(sha(afterA));
    const u2 = h.run(['compact', '--undo', '--session', CC_ID]);
    expect(u2.status).toBe(2);
    expect(u2.stderr).toContain(`the compaction made at ${a.body.record.at} can no longer be undone: its backup ${a.body.backup} was removed at `);
  });

  it('a bad HIVE_MIND_COMPACT_KEEP_BACKUPS refuses the in-place write before anything is written', async () => {
    const h = await setup({ HIVE_MIND_COMPACT_KEEP_BACKUPS: 'abc' });
    const original = readFileSync(h.cc);
    const r = await h.post('/api/compaction/write', { path: h.cc, window: 15000, inPlace: true });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^HIVE_MIND_COMPACT_KEEP_BACKUPS="abc" must be a positive integer/);
    expect(readFileSync(h.cc).equals(original)).toBe(true);
    expect(backupsOf(h.cc)).toEqual([]);
  });
});

describe('in headless Chromium', () => {
  it('a session a host just wrote: refused with the reason, "Compact anyway", the undo command shown; the CLI undoes it byte for byte', async () => {
    const h = await setup();
    const original = readFileSync(h.cc);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${h.ui.url}#/compaction`);
      await page.getByText("Sessions in the hosts' folders").click();
      await page.getByLabel('Window', { exact: true }).fill('15000');
      justWritten(h.cc);
      await page.getByRole('button', { name: /^claude-code · / }).click();
      await page.locator('pre.checkpoint').waitFor({ timeout: 60_000 });
      expect(await page.locator('p.summary').innerText()).toContain(`claude-code session ${CC_ID}`);
      expect(await page.locator('p.warn-text').innerText()).toContain('Compacting it in place is refused now: Claude Code session');
      await page.getByRole('button', { name: 'Compact in place…' }).click();
      await page.getByRole('button', { name: 'Compact in place', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^Not compacted: Claude Code session .* is being written right now: it was written \d+ s ago/);
      expect(readFileSync(h.cc).equals(original)).toBe(true);
      await page.getByRole('button', { name: 'Compact anyway' }).click();
      await expect.poll(() => page.locator('.written').innerText()).toContain('undo it: hive-mind compact --undo --session');
      const [rec] = records(h.cc);
      const text = await page.locator('.written').innerText();
      expect(text).toContain(`Recorded as the compaction at ${rec.at} (extractive); undo it: hive-mind compact --undo --session ${CC_ID} --host claude-code`);
      expect(text).toContain(`the original is kept as ${rec.backup}`);
      expect(text).toContain(`Resume it: `);
      // the preview is now of the file as written: its size is the compaction's figure after
      expect(await page.locator('.gauge').getAttribute('aria-label')).toBe(`${rec.tokensAfter.toLocaleString('en-US')} tokens of a 15,000-token window; the budget is 12,000`);
      await page.locator('.written').scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath('compaction-in-place.png') });
      const undo = h.run(['compact', '--undo', '--session', CC_ID]);
      expect(undo.status, undo.stderr).toBe(0);
      expect(undo.stdout).toContain(`undid the compaction of ${h.cc} made at ${rec.at} (${rec.tokensBefore} -> ${rec.tokensAfter} tokens`);
      expect(sha(readFileSync(h.cc))).toBe(sha(original));
    } finally {
      await browser.close();
    }
  }, 120_000); // Chromium, two compactions and the CLI undo; its checkpoint wait alone allows 60 s
});
