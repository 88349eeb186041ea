import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { a11yViolations, cli, closeAll, requireBuilt, type RunningUi, shotPath, startUi, tempHome } from './helpers.js';
import { seedMinds, type Seeded } from './seed.js';

// "Next session" in headless Chromium: the preview must be what the real `hive-mind hook HOST
// SessionStart` prints for the same payload, byte for byte (the per-injection nonce aside).

const ENV = { HIVE_MIND_RECALL_TOKENS: '600' };
const PREVIEW_SESSION = 'hive-mind-ui-preview';
let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let page: Page;
let seed: Seeded;

const nonce = (s: string) => s.replace(/hive-mind-memory-[0-9a-f]{16}/g, 'hive-mind-memory-NONCE');

beforeAll(async () => {
  requireBuilt();
  home = tempHome();
  seed = seedMinds(home.home);
  expect(cli(home.home, ['notes', 'add', 'The build runs with pnpm, never npm.'], undefined, ENV).status).toBe(0);
  expect(cli(home.home, ['notes', 'add', '--user', 'The user is Dana; prefers short answers.'], undefined, ENV).status).toBe(0);
  ui = await startUi(home.home, ENV);
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${ui.url}#/next`);
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

async function preview(host: string, workspace: string): Promise<string> {
  await page.getByLabel('Host').selectOption(host);
  await page.getByLabel('Workspace').fill(workspace);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect.poll(() => page.locator('.summary').innerText()).toContain(`workspace ${workspace} · ${host} `);
  return (await page.locator('pre.hook-stdout').textContent()) ?? '';
}

describe('Next session view', () => {
  for (const [host, event, payload] of [
    ['claude-code', 'SessionStart', (cwd: string) => ({ session_id: PREVIEW_SESSION, cwd, hook_event_name: 'SessionStart', source: 'startup' })],
    ['codex', 'SessionStart', (cwd: string) => ({ session_id: PREVIEW_SESSION, cwd, hook_event_name: 'SessionStart', source: 'startup' })],
  ] as const) {
    it(`shows exactly what ${host}'s SessionStart hook prints`, async () => {
      const shown = await preview(host, seed.workspace);
      const real = cli(home.home, ['hook', host, event], JSON.stringify(payload(seed.workspace)), ENV);
      expect(real.status).toBe(0);
      expect(real.stdout).toContain('hive-mind-memory-');
      expect(nonce(shown)).toBe(nonce(real.stdout)); // byte for byte but the nonce
      expect(shown).not.toBe(real.stdout); // and the nonce really is per injection
    });
  }

  it('counts the tokens against the budget and says why each item is in or out', async () => {
    await preview('claude-code', seed.workspace);
    const summary = await page.locator('.summary').innerText();
    const m = /([\d,]+) of 600 tokens/.exec(summary);
    expect(m).not.toBeNull();
    expect(Number(m![1]!.replace(/,/g, ''))).toBeLessThanOrEqual(600);
    const verdicts = page.locator('ul.verdicts li');
    // the notes come first and are in; then what is important in both minds, ahead of any normal frame:
    // the workspace's important fact is in at 600 tokens, the personal mind's 240 important session notes
    // fill the rest and are partly left out, each saying why; no normal frame fits
    expect(await verdicts.filter({ hasText: 'pnpm, never npm' }).first().innerText()).toMatch(/^in/);
    expect(await verdicts.filter({ hasText: 'Stripe sandbox' }).first().innerText()).toMatch(/^in.*recalled: important/s);
    const texts = await verdicts.allInnerTexts();
    expect(texts.filter((t) => /^in#\d+ important decision.*recalled: important/s.test(t)).length).toBeGreaterThan(0);
    expect(texts.filter((t) => /^out#\d+ important (?:decision|fact).*left out: does not fit the budget left/s.test(t)).length).toBeGreaterThan(0);
    expect(texts.filter((t) => /^in#\d+ normal /.test(t))).toEqual([]);
    // 240 session notes cannot fit in 600 tokens: some are out, and say so
    expect(await verdicts.filter({ hasText: 'does not fit the budget left' }).count()).toBeGreaterThan(0);
    // the quarantined frame is counted among what is never recalled
    expect(await page.locator('.next').innerText()).toMatch(/1 quarantined/);
    await page.screenshot({ path: shotPath('next-session.png'), fullPage: false });
  });

  it('has no serious accessibility violation', async () => {
    const found = await a11yViolations(ui, 'next', async (p) => {
      await p.getByLabel('Workspace').fill(seed.workspace);
      await p.getByRole('button', { name: 'Preview' }).click();
      await p.locator('pre.injected').waitFor();
    });
    expect(found).toEqual([]);
  });
});
