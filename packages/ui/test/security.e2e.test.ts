import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium, type Browser } from '../../../test-support/chromium.js';
import { mindShow, rawRequest, requireBuilt, startUi, tempHome, type RunningUi } from './helpers.js';
import { seedMinds, type Seeded } from './seed.js';

// Who may talk to `hive-mind ui`: each refused request is checked to have changed nothing with
// the real `hive-mind mind show`.

let home: { home: string; cleanup: () => void };
let ui: RunningUi;
let seed: Seeded;
let before: ReturnType<typeof mindShow>;

beforeAll(async () => {
  requireBuilt();
  home = tempHome();
  seed = seedMinds(home.home);
  ui = await startUi(home.home);
  before = mindShow(home.home, seed.deploy);
  expect(before).toBeDefined();
}, 60_000);

afterAll(async () => {
  await ui?.stop();
  home?.cleanup();
});

const host = () => `127.0.0.1:${ui.port}`;
const json = (body: unknown, extra: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { host: host(), 'content-type': 'application/json', 'x-hive-mind-token': ui.token, ...extra },
  body: JSON.stringify(body),
});
const unchanged = () => expect(mindShow(home.home, seed.deploy)).toEqual(before);

describe('refused, with nothing changed', () => {
  it('serves the page and the API to the token, and binds 127.0.0.1 only', async () => {
    const page = await rawRequest(ui.port, { path: `/?token=${ui.token}`, headers: { host: host() } });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`content="${ui.token}"`);
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const api = await rawRequest(ui.port, { path: '/api/minds', headers: { host: host(), 'x-hive-mind-token': ui.token } });
    expect(api.status).toBe(200);
    expect(ui.url.startsWith('http://127.0.0.1:')).toBe(true);
  });

  it('no token', async () => {
    const page = await rawRequest(ui.port, { path: '/', headers: { host: host() } });
    expect(page.status).toBe(401);
    expect(page.body).not.toContain(ui.token);
    const asset = await rawRequest(ui.port, { path: '/index.html', headers: { host: host() } });
    expect(asset.status).toBe(401);
    const r = await rawRequest(ui.port, { path: `/api/frames/${seed.deploy}/forget`, ...json({ mind: 'personal' }, { 'x-hive-mind-token': '' }) });
    expect(r.status).toBe(401);
    unchanged();
  });

  it('a wrong token', async () => {
    const wrong = ui.token.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await rawRequest(ui.port, { path: `/?token=${wrong}`, headers: { host: host() } })).status).toBe(401);
    expect((await rawRequest(ui.port, { path: '/', headers: { host: host(), cookie: `hive_mind_ui_${ui.port}=${wrong}` } })).status).toBe(401);
    const r = await rawRequest(ui.port, { path: `/api/frames/${seed.deploy}/importance`, ...json({ mind: 'personal', importance: 'deprecated' }, { 'x-hive-mind-token': wrong }) });
    expect(r.status).toBe(401);
    unchanged();
  });

  it('Host: evil.example (DNS rebinding), even with the token', async () => {
    for (const h of ['evil.example', `evil.example:${ui.port}`]) {
      expect((await rawRequest(ui.port, { path: `/?token=${ui.token}`, headers: { host: h } })).status).toBe(403);
      const r = await rawRequest(ui.port, { path: `/api/frames/${seed.deploy}/forget`, ...json({ mind: 'personal' }, { host: h }) });
      expect(r.status).toBe(403);
      expect(r.body).toContain('foreign Host');
    }
    unchanged();
  });

  it('Origin: http://localhost:9999, even with the token', async () => {
    const r = await rawRequest(ui.port, { path: `/api/frames/${seed.deploy}/importance`, ...json({ mind: 'personal', importance: 'deprecated' }, { origin: 'http://localhost:9999' }) });
    expect(r.status).toBe(403);
    expect(r.body).toContain('foreign Origin');
    const nul = await rawRequest(ui.port, { path: `/api/frames/${seed.deploy}/forget`, ...json({ mind: 'personal' }, { origin: 'null' }) });
    expect(nul.status).toBe(403);
    unchanged();
  });

  it('a write that is not JSON (what an HTML form can send)', async () => {
    const r = await rawRequest(ui.port, {
      method: 'POST',
      path: `/api/frames/${seed.deploy}/forget`,
      headers: { host: host(), 'content-type': 'text/plain', 'x-hive-mind-token': ui.token },
      body: '{"mind":"personal"}',
    });
    expect(r.status).toBe(403);
    unchanged();
  });

  describe('in Chromium, from a page of another origin', () => {
    let browser: Browser;
    let evil: Server;
    let evilOrigin: string;
    beforeAll(async () => {
      // another local app on another port: a same-site page, so the UI's cookie travels with its requests
      evil = createServer((req, res) => {
        const target = `${ui.origin}/api/frames/${seed.deploy}/forget`;
        res.setHeader('content-type', 'text/html');
        if (req.url === '/form') {
          // the classic JSON CSRF: a text/plain form whose body parses as JSON
          res.end(`<form id=f method=POST enctype="text/plain" action="${target}"><input name='{"mind":"personal","x":"' value='"}'></form><script>f.submit()</script>`);
        } else {
          res.end(`<script>
            window.result = fetch(${JSON.stringify(target)}, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hive-mind-token': ${JSON.stringify(ui.token)} }, body: '{"mind":"personal"}' })
              .then((r) => 'status ' + r.status, (e) => 'blocked: ' + e.message);
          </script>`);
        }
      });
      await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
      evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => evil?.close(r));
    });

    it('a cross-origin form POST is refused', async () => {
      const page = await browser.newPage();
      await page.goto(ui.url); // the person has the UI open: its cookie is set
      const answered = page.waitForResponse((r) => r.url().includes('/forget'));
      await page.goto(`${evilOrigin}/form`);
      const res = await answered;
      expect(res.status()).toBe(403);
      expect(await res.text()).toMatch(/refused: (foreign Origin|a same-site request)/);
      unchanged();
    });

    it('a cross-origin fetch, even one holding the token, is refused', async () => {
      const page = await browser.newPage();
      await page.goto(`${evilOrigin}/fetch`);
      const outcome = (await page.evaluate('window.result')) as string;
      expect(outcome).toMatch(/^blocked: /);
      unchanged();
    });
  });
});
