import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { a11yViolations, closeAll, mindShow, requireBuilt, type RunningUi, shotPath, startUi, tempHome } from './helpers.js';
import { seedMinds, type Seeded } from './seed.js';

// The Frames view in headless Chromium against the real `hive-mind ui` process; every change
// made in the page is checked with the real `hive-mind mind show`.

let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let page: Page;
let seed: Seeded;

beforeAll(async () => {
  requireBuilt();
  home = tempHome();
  seed = seedMinds(home.home);
  ui = await startUi(home.home);
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(ui.url);
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

const count = () => page.locator('.count').innerText();
const detail = () => page.locator('aside.detail');

async function search(q: string) {
  const box = page.getByRole('searchbox');
  await box.fill(q);
  await box.press('Enter');
}

async function openRow(id: number) {
  await page.locator('button.row', { hasText: `#${id}` }).first().click();
  await expect.poll(() => detail().locator('h2').innerText()).toBe(`Frame #${id}`);
}

describe('Frames view', () => {
  it('lists the mind newest first, with the total, and pages', async () => {
    const live = seed.total - 1; // the superseded version is listed only with state superseded
    await expect.poll(count).toContain(`Frames 1–50 of ${live}`);
    expect(page.url()).not.toContain('token='); // dropped from the address bar once loaded
    await page.getByRole('button', { name: 'Older →' }).click();
    await expect.poll(count).toContain(`Frames 51–100 of ${live}`);
    await page.getByRole('button', { name: '← Newer' }).click();
    await expect.poll(count).toContain('Frames 1–50');
  });

  it('searches with the CLI search and marks the matches', async () => {
    await search('deploy prod');
    await expect.poll(count).toMatch(/^Matches 1–\d+ of \d+/);
    const first = page.locator('button.row').first();
    expect(await first.innerText()).toContain(`#${seed.deploy}`);
    const marks = await first.locator('mark').allInnerTexts();
    expect(marks.map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(['deploys', 'prod']));
  });

  it('changes an importance, seen by `mind show`, and undoes it', async () => {
    await openRow(seed.deploy);
    const before = mindShow(home.home, seed.deploy)!.frame;
    expect(before.importance).toBe('normal');
    await detail().getByLabel('Importance').selectOption('critical');
    await detail().getByRole('button', { name: 'Set importance' }).click();
    await expect.poll(() => page.locator('.notice').innerText()).toContain(`importance of #${seed.deploy}: normal → critical`);
    expect(mindShow(home.home, seed.deploy)!.frame.importance).toBe('critical');
    await page.screenshot({ path: shotPath('frames-light.png') });
    await page.getByRole('button', { name: /^Undo / }).click();
    await expect.poll(() => page.locator('.notice').innerText()).toContain('Undone');
    expect(mindShow(home.home, seed.deploy)!.frame).toEqual(before); // exactly as it was, updatedAt included
  });

  it('forgets a frame and undoes the forget', async () => {
    await openRow(seed.deploy);
    const before = mindShow(home.home, seed.deploy)!;
    await detail().getByRole('button', { name: 'Forget…' }).click();
    await detail().getByRole('button', { name: 'Forget', exact: true }).click();
    await expect.poll(() => page.locator('.notice').innerText()).toContain(`forget #${seed.deploy}`);
    expect(mindShow(home.home, seed.deploy)).toBeUndefined();
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('.notice').innerText()).toContain('Undone');
    expect(mindShow(home.home, seed.deploy)).toEqual(before);
  });

  it('shows the supersede history of a frame', async () => {
    await search('dev server port');
    await openRow(seed.newPort);
    await expect.poll(() => detail().locator('.history').innerText()).toContain('port 3000');
    expect(await detail().locator('.prov').innerText()).toContain('codex');
  });

  it('filters quarantined frames, releases one and sends it back', async () => {
    await search('');
    await page.locator('details.filters summary').click();
    await page.getByLabel('State').selectOption('quarantined');
    await expect.poll(count).toContain('Frames 1–1 of 1');
    await openRow(seed.quarantined);
    await detail().getByRole('button', { name: 'Release from quarantine' }).click();
    await expect.poll(() => mindShow(home.home, seed.quarantined)!.frame.quarantined).toBe(false);
    await detail().getByRole('button', { name: 'Send to quarantine' }).click();
    await expect.poll(() => mindShow(home.home, seed.quarantined)!.frame.quarantined).toBe(true);
    await page.getByRole('button', { name: 'Clear all' }).click();
  });

  it('picks a workspace mind', async () => {
    await page.getByLabel('Mind').selectOption({ label: `workspace ${seed.workspace}` });
    await expect.poll(count).toMatch(/^Frames 1–1 of 1 · .*workspaces\//);
    await expect.poll(() => page.locator('button.row').first().innerText()).toContain('Stripe sandbox');
    await page.getByLabel('Mind').selectOption('personal');
    await expect.poll(count).toMatch(/personal\.mind/);
  });

  it('works from the keyboard: / to search, j/k to move, Enter to open, Esc to close', async () => {
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement.type')).toBe('search');
    await page.keyboard.type('tabs spaces');
    await page.keyboard.press('Enter');
    await expect.poll(count).toMatch(/^Matches 1–/);
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => detail().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => detail().count()).toBe(0);
  });

  it('has no serious accessibility violation, light or dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const prepare = async (p: Page) => {
        await p.getByRole('searchbox').fill('deploy');
        await p.getByRole('searchbox').press('Enter');
        await expect.poll(() => p.locator('button.row').count()).toBeGreaterThan(0);
        await p.locator('button.row').first().click();
        await p.locator('aside.detail h2').waitFor();
      };
      expect(await a11yViolations(ui, '', prepare, { colorScheme, ...(colorScheme === 'dark' ? { shot: 'frames-dark.png' } : {}) })).toEqual([]);
    }
  });
});
