import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { a11yViolations, cli, closeAll, REPO, requireBuilt, type RunningUi, shotPath, startUi, tempHome } from './helpers.js';

// The Compaction view on a real Claude Code transcript from ../shared/data/transcripts: its
// figures must be the CLI's (`hive-mind compact --json`), and writing follows the CLI's rule.

const SHARED = join(REPO, '..', 'shared', 'data', 'transcripts', 'claude-code', 'coverage-test-fix.jsonl');
const WINDOW = '2000';
let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let page: Page;
let file: string;

beforeAll(async () => {
  requireBuilt();
  if (!existsSync(SHARED)) throw new Error(`${SHARED} is missing: the shared transcripts sit beside the repository (../shared/data)`);
  home = tempHome();
  file = join(home.home, 'session.jsonl');
  copyFileSync(SHARED, file);
  ui = await startUi(home.home);
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${ui.url}#/compaction`);
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

describe('Compaction view', () => {
  it('opens a shared transcript: size against the window, the cut, the checkpoint beside its span, the anchors', async () => {
    await page.getByLabel('Session file').fill(file);
    await page.getByLabel('Window', { exact: true }).fill(WINDOW);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.locator('pre.checkpoint').waitFor({ timeout: 60_000 });
    const cliReport = JSON.parse(cli(home.home, ['compact', file, '--window', WINDOW, '--dry-run', '--json']).stdout);
    const text = await page.locator('.compaction').innerText();
    const fmt = (n: number) => n.toLocaleString('en-US');
    expect(text).toContain(`${fmt(cliReport.tokensBefore)} → ${fmt(cliReport.tokensAfter)}`);
    expect(text).toContain(`of a ${fmt(2000)}-token window`);
    expect(await page.locator('ol.nodes.all li.cut').count()).toBeGreaterThan(0);
    expect(await page.locator('.cols ol.nodes li.node.span').count()).toBe(cliReport.shadowedEvents);
    const a = cliReport.anchors;
    expect(await page.locator('h3', { hasText: /anchors/i }).textContent()).toBe(`Anchors (${a.total}: ${a.kept} kept by the summary, ${a.reinserted} re-inserted)`);
    expect(await page.locator('pre.checkpoint').innerText()).toMatch(/\S/);
    const anchors = await page.locator('ul.anchors li').allInnerTexts();
    expect(anchors.length).toBeGreaterThan(0);
    expect(anchors.every((a) => /^(kept|re-inserted|lost)/.test(a))).toBe(true);
    await page.screenshot({ path: shotPath('compaction.png') });
  });

  it('writes the compacted file beside it, then in place with a backup of the original', async () => {
    const original = readFileSync(file);
    await page.getByRole('button', { name: 'Write session.compacted.jsonl' }).click();
    await expect.poll(() => page.locator('p.ok').innerText()).toContain('session.compacted.jsonl');
    expect(existsSync(join(home.home, 'session.compacted.jsonl'))).toBe(true);
    expect(cli(home.home, ['inspect', join(home.home, 'session.compacted.jsonl')]).status).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);
    await page.getByRole('button', { name: 'Compact in place…' }).click();
    await page.getByRole('button', { name: 'Compact in place', exact: true }).click();
    await expect.poll(() => page.locator('p.ok').innerText()).toContain('the original is kept as');
    const backups = readdirSync(home.home).filter((n) => n.startsWith('session.jsonl.hive-mind-backup-'));
    expect(backups.length).toBe(1);
    expect(readFileSync(join(home.home, backups[0]!)).equals(original)).toBe(true);
    expect(readFileSync(file).equals(original)).toBe(false);
    // recorded as the CLI records it: `compact --undo FILE` puts the original back
    const undo = await page.locator('.written code').first().innerText();
    expect(undo).toBe(`hive-mind compact --undo ${file}`);
    const r = cli(home.home, ['compact', '--undo', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it('has no serious accessibility violation', async () => {
    const found = await a11yViolations(ui, 'compaction', async (p) => {
      await p.getByLabel('Session file').fill(join(home.home, 'session.compacted.jsonl'));
      await p.getByLabel('Window', { exact: true }).fill(WINDOW);
      await p.getByRole('button', { name: 'Open' }).click();
      await p.locator('.gauge').waitFor({ timeout: 60_000 });
    });
    expect(found).toEqual([]);
  });
});
