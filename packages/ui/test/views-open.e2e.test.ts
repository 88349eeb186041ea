import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { closeAll, REPO, requireBuilt, type RunningUi, startUi, tempHome } from './helpers.js';
import { seedMinds } from './seed.js';

// What the page shows as soon as a view is opened, in headless Chromium with a fresh profile
// (nothing remembered): "Next session" runs its preview for the first known workspace and
// "Compaction" opens the newest session of the hosts' folders without a click; frame rows give
// the date and the time; the Window field shows its whole placeholder.

const SESSION_ID = 'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f';
let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let session: string;

beforeAll(async () => {
  requireBuilt();
  home = tempHome();
  seedMinds(home.home);
  // a Claude Code session where Claude Code keeps them (HOME below), from the repository's sample
  const project = join(home.home, 'os-home', '.claude', 'projects', '-tmp-tmpqwh7888i');
  mkdirSync(project, { recursive: true });
  session = join(project, `${SESSION_ID}.jsonl`);
  copyFileSync(join(REPO, 'examples', 'sessions', 'claude-code-python-to-rust-port.jsonl'), session);
  ui = await startUi(home.home, { HIVE_MIND_RECALL_TOKENS: '600', HOME: join(home.home, 'os-home'), CLAUDE_CONFIG_DIR: undefined });
  browser = await launchChromium();
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

/** A new page on `view` with nothing remembered: its localStorage (shared by the profile) is cleared before the page's script runs. */
async function fresh(view: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript('localStorage.clear()');
  await page.goto(`${ui.url}#/${view}`);
  return page;
}

describe('views load their content on open', () => {
  it('Next session: the preview of the first known workspace is shown without pressing Preview', async () => {
    const page = await fresh('next');
    // the first known workspace: the ui's own folder's (main's "this folder" view), else a workspace mind's
    await expect.poll(() => page.getByLabel('Workspace').inputValue()).not.toBe('');
    const ws = await page.getByLabel('Workspace').inputValue();
    await page.locator('pre.hook-stdout').waitFor({ state: 'attached', timeout: 30_000 });
    expect(await page.locator('.summary').innerText()).toContain(` of 600 tokens`);
    expect(await page.locator('.summary').innerText()).toContain(`workspace ${ws} · claude-code SessionStart`);
    expect(await page.getByText('Pick a workspace').count()).toBe(0);
    await page.close();
  });

  it("Compaction: the newest session of the hosts' folders is opened without pressing Open", async () => {
    const page = await fresh('compaction');
    await expect.poll(() => page.getByLabel('Session file').inputValue(), { timeout: 30_000 }).toBe(session);
    await page.locator('.compaction .summary').first().waitFor({ timeout: 30_000 });
    const text = await page.locator('.compaction').innerText();
    expect(text).toContain(session);
    expect(text).toMatch(/claude-code session c7d3d95c-57f0-4359-8f4b-926a9bef5a3f/);
    await page.close();
  });

  it('Frames: each row gives the date and the time it was said', async () => {
    const page = await fresh('frames');
    const meta = page.locator('ol.rows li .meta .muted').first();
    await meta.waitFor();
    expect(await meta.innerText()).toMatch(/ · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    await page.close();
  });

  it("the Window field's placeholder fits the field, at the page's width and at 1024 px", async () => {
    for (const width of [1280, 1024]) {
      const page = await fresh('compaction');
      await page.setViewportSize({ width, height: 800 });
      const input = page.locator('form.search input[aria-label="Window"]');
      await input.waitFor();
      // runs in the page (the test's tsconfig has no DOM types)
      const fit = await input.evaluate((el: any) => {
        const w = globalThis as any;
        const cs = w.getComputedStyle(el);
        const ctx = w.document.createElement('canvas').getContext('2d');
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = ctx.measureText(el.placeholder).width;
        // the text box: the content width less the number input's spin buttons (about 15 px in Chromium)
        const box = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 15;
        return { placeholder: el.placeholder as string, text: text as number, box };
      });
      expect(fit.placeholder).toBe('from the file, else 200000');
      expect(fit.text, `at ${width} px`).toBeLessThanOrEqual(fit.box);
      await page.close();
    }
  });
});
