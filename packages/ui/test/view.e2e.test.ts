import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { cli, closeAll, requireBuilt, startUi, tempHome, type RunningUi } from './helpers.js';

// The page opens on what a session started in `hive-mind ui`'s folder sees: the real hook runner
// (`hive-mind hook claude-code ...`, a child process) saves into the project's workspace mind,
// `mind save` into the personal one; the real `hive-mind ui`, started in a sub-folder of the
// project, serves both merged (the API, then the page in headless Chromium), every row naming its
// mind, and a frame's detail and changes go to that mind.

let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let browser: Browser;
let page: Page;
let proj: string;
let sub: string;

async function get(path: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${ui.origin}${path}`, { headers: { 'x-hive-mind-token': ui.token } });
  return { status: r.status, body: await r.json() };
}
async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${ui.origin}${path}`, { method: 'POST', headers: { 'x-hive-mind-token': ui.token, 'content-type': 'application/json', origin: ui.origin }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

function hook(event: string, payload: Record<string, unknown>): void {
  const r = cli(home.home, ['hook', 'claude-code', event], JSON.stringify({ session_id: 'sess-1', cwd: sub, hook_event_name: event, ...payload }));
  expect(r.status).toBe(0);
}

beforeAll(async () => {
  requireBuilt();
  home = tempHome('hm-ui-view-');
  proj = realpathSync(home.home) + '/shop-app';
  sub = join(proj, 'web', 'checkout');
  mkdirSync(join(proj, '.git'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  hook('UserPromptSubmit', { prompt: 'We decided that checkout payments go through the Stripe sandbox in staging.' });
  hook('Stop', { last_assistant_message: 'The checkout service is served at https://checkout.shop.example:8443 now.' });
  expect(cli(home.home, ['mind', 'save', 'The user reviews checkout changes on Mondays']).status).toBe(0);
  ui = await startUi(home.home, {}, sub);
}, 90_000);

afterAll(() => closeAll(browser, ui, home));

describe("the page's default: this folder's workspace mind and the personal mind", () => {
  it('lists the view first, naming the minds it merges', async () => {
    const { body } = await get('/api/minds');
    const view = body.minds[0];
    expect(view).toMatchObject({ id: 'here', kind: 'view', workspace: proj, folder: sub, exists: true });
    expect(view.members).toHaveLength(2);
    expect(view.members[0]).toMatch(/^workspace:/);
    expect(view.members[1]).toBe('personal');
    expect(body.minds.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(view.members));
  });

  it('searches and lists both minds as one, each row naming its mind; facets add up', async () => {
    const s = await get('/api/frames?mind=here&q=checkout');
    expect(s.status).toBe(200);
    const minds = new Set(s.body.frames.map((f: { mind: string }) => f.mind));
    expect(minds.size).toBe(2);
    expect(minds).toContain('personal');
    const scores = s.body.frames.map((f: { score: number }) => f.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const l = await get('/api/frames?mind=here');
    const ws = (await get(`/api/frames?mind=${encodeURIComponent(l.body.frames.find((f: { mind: string }) => f.mind !== 'personal').mind)}`)).body;
    const personal = (await get('/api/frames?mind=personal')).body;
    expect(l.body.total).toBe(ws.total + personal.total);
    const times = l.body.frames.map((f: { updatedAt: string }) => f.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const facets = (await get('/api/facets?mind=here')).body;
    expect(facets.hosts.find(([h]: [string]) => h === 'claude-code')[1]).toBeGreaterThan(0);
    expect(facets.hosts.find(([h]: [string]) => h === 'cli')[1]).toBe(1);
  });

  it("a frame is read and changed in the mind its row names, never through the view's id", async () => {
    const row = (await get('/api/frames?mind=here&q=checkout')).body.frames.find((f: { mind: string }) => f.mind !== 'personal');
    expect(row.mind).toMatch(/^workspace:/);
    expect((await get(`/api/frames/${row.id}?mind=here`)).status).toBe(400);
    const d = await get(`/api/frames/${row.id}?mind=${encodeURIComponent(row.mind)}`);
    expect(d.body.frame.content).toBe(row.content);
    expect((await post(`/api/frames/${row.id}/importance`, { mind: 'here', importance: 'important' })).status).toBe(400);
    const changed = await post(`/api/frames/${row.id}/importance`, { mind: row.mind, importance: 'important' });
    expect(changed.body.ok).toBe(true);
    // seen by the CLI: the workspace frame changed, not the personal frame with the same id
    const shown = JSON.parse(cli(home.home, ['mind', 'show', String(row.id), '--workspace', proj, '--json']).stdout);
    expect(shown.frame.importance).toBe('important');
    expect(JSON.parse(cli(home.home, ['mind', 'list', '--personal', '--importance', 'important', '--json']).stdout).frames).toEqual([]);
    expect((await post('/api/undo', {})).status).toBe(200);
  });

  it('the page opens on the view: rows from both minds, badged, and a row opens its own mind', async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(ui.url);
    await expect.poll(() => page.locator('.count').innerText()).toMatch(/^Frames 1–\d+ of \d+ · workspace \+ personal · /);
    const badges = await page.locator('button.row .badge.mind').allInnerTexts();
    expect(new Set(badges)).toEqual(new Set(['workspace', 'personal']));
    await page.locator('button.row', { hasText: 'checkout.shop.example:8443' }).first().click();
    await expect.poll(() => page.locator('aside.detail').innerText()).toContain('checkout.shop.example:8443');
    await page.locator('button.row', { hasText: 'reviews checkout changes' }).first().click();
    await expect.poll(() => page.locator('aside.detail').innerText()).toContain('reviews checkout changes on Mondays');
  });
});
