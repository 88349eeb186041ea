import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { a11yViolations, cli, closeAll, mindShow, requireBuilt, type RunningUi, shotPath, startUi, tempHome } from './helpers.js';

// The Notes view in headless Chromium against the real `hive-mind ui`; every write is read
// back with the real `hive-mind notes show`. A 300-character MEMORY.md limit makes "past the
// limit" a few entries away.

const ENV = { HIVE_MIND_MEMORY_CHAR_LIMIT: '300' };
let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let page: Page;

const show = (args: string[] = []) => JSON.parse(cli(home.home, ['notes', 'show', '--json', ...args], undefined, ENV).stdout) as { entries: string[]; usage: { chars: number } };
const memory = () => page.locator('article.notes-file', { has: page.getByRole('heading', { name: 'MEMORY.md', exact: true }) });

beforeAll(async () => {
  requireBuilt();
  home = tempHome();
  for (const e of ['The build runs with pnpm, never npm.', 'Staging lives at staging.example.internal.', 'Release notes go in CHANGELOG.md under Unreleased.'])
    expect(cli(home.home, ['notes', 'add', e], undefined, ENV).status).toBe(0);
  expect(cli(home.home, ['notes', 'add', '--user', 'The user is Dana; prefers short answers.'], undefined, ENV).status).toBe(0);
  ui = await startUi(home.home, ENV);
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${ui.url}#/notes`);
  await memory().waitFor();
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

describe('Notes view', () => {
  it('shows USER.md and MEMORY.md with their usage against the limit and each entry with its size', async () => {
    const chars = show().usage.chars;
    expect(await memory().locator('.usage-text').innerText()).toContain(`${chars} / 300 characters`);
    expect(await memory().locator('.entry').count()).toBe(3);
    expect(await memory().locator('.entry').first().innerText()).toContain(`${'The build runs with pnpm, never npm.'.length} characters`);
    const user = page.locator('article.notes-file', { has: page.getByRole('heading', { name: 'USER.md' }) });
    expect(await user.innerText()).toContain('Dana');
  });

  it('an entry past the limit is refused, the result shown, the fact kept as a pending frame', async () => {
    const before = show();
    const long = 'The deploy checklist: run the migrations first, then warm the caches, then flip the feature flags one by one, and watch the error dashboard for ten minutes before announcing.';
    await memory().getByLabel('New entry for MEMORY.md').fill(long);
    await memory().getByRole('button', { name: 'Add', exact: true }).click();
    const result = memory().locator('.result.refused');
    await expect.poll(() => result.innerText()).toContain('Not written (over limit)');
    const text = await result.innerText();
    expect(text).toMatch(/over\b/);
    const pending = Number(/pending frame #(\d+)/.exec(text)?.[1]);
    expect(pending).toBeGreaterThan(0);
    expect(mindShow(home.home, pending)!.frame).toMatchObject({ kind: 'pending-note', content: long });
    expect(show()).toEqual(before); // nothing written
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: shotPath('notes.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    // the consolidation on offer makes room (the oldest unpinned entries go to the archive)
    await result.getByRole('button', { name: 'Write it with consolidation' }).click();
    await expect.poll(() => memory().locator('.result').innerText()).toContain('consolidated');
    expect(show().entries).toContain(long);
    expect(await memory().locator('details.archive summary').innerText()).toMatch(/Archive \(\d+\)/);
  });

  it('edits, pins, archives and restores an entry', async () => {
    const first = () => memory().locator('.entry').first();
    const original = show().entries[0]!;
    await first().getByRole('button', { name: /^Edit/ }).click();
    await first().locator('textarea').fill(`${original} (checked)`);
    await first().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => show().entries[0]).toBe(`${original} (checked)`);
    await first().getByRole('button', { name: /^Pin/ }).click();
    await expect.poll(() => show().entries[0]).toBe(`!${original} (checked)`);
    await first().getByRole('button', { name: /^Unpin/ }).click();
    await expect.poll(() => show().entries[0]).toBe(`${original} (checked)`);
    await first().getByRole('button', { name: /^Archive/ }).click();
    await expect.poll(() => show().entries.includes(`${original} (checked)`)).toBe(false);
    await memory().locator('details.archive summary').click();
    const archived = memory().locator('details.archive li', { hasText: `${original} (checked)` });
    await archived.getByRole('button', { name: /^Restore/ }).click();
    await expect.poll(() => show().entries.includes(`${original} (checked)`)).toBe(true);
  });

  it('removes an entry', async () => {
    const n = show().entries.length;
    const last = memory().locator('.entry').last();
    await last.getByRole('button', { name: /^Remove/ }).click();
    await expect.poll(() => show().entries.length).toBe(n - 1);
  });

  it('has no serious accessibility violation', async () => {
    expect(await a11yViolations(ui, 'notes', (p) => p.locator('article.notes-file').first().waitFor())).toEqual([]);
  });
});
