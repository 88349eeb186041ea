#!/usr/bin/env node
// hive-mind ui over a 100,000-frame mind: server start-up, time to first paint and to the first
// rows in headless Chromium (Debian's /usr/bin/chromium through playwright-core), and a search
// typed in the page against the same search from the CLI (`hive-mind mind search`) in this run.
//   npm run build && node bench/ui.mjs [--frames 100000] [--runs 5]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, cli, percentile, root } from './lib.mjs';

const FRAMES = arg('--frames', 100_000);
const RUNS = arg('--runs', 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const QUERY = 'flaky login timeout';
if (!existsSync(join(root, 'packages/ui/dist/web/index.html'))) throw new Error('run `npm run build` first (packages/ui/dist/web is missing)');
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);

const { Mind, personalMindPath } = await import(join(root, 'packages/mind/dist/index.js'));
const { chromium } = await import('playwright-core');

const home = mkdtempSync(join(tmpdir(), 'hm-bench-ui-'));
const env = { ...process.env, HIVE_MIND_HOME: home };
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

// a mind like a busy year of hooks: facts, decisions, prompts and outcomes over many sessions.
// The first SEEDED frames go through Mind.saveMany (the real save pipeline: ~5 ms a frame on this
// shared machine); the rest are SQL copies of them with new ids, turn ids and text, indexed by the
// store's own FTS triggers, so building the mind does not take most of the run.
const SEEDED = Math.min(FRAMES, 10_000);
const TOPICS = ['the build', 'the flaky login test', 'the release', 'database migrations', 'the CI runner', 'code review', 'logging', 'the payment timeout', 'caching', 'the API client'];
const KINDS = ['fact', 'decision', 'outcome', 'prompt', 'preference', 'instruction'];
{
  const t0 = process.hrtime.bigint();
  const m = Mind.open(personalMindPath(env));
  for (let start = 0; start < SEEDED; start += 2000) {
    const batch = [];
    for (let i = start; i < Math.min(SEEDED, start + 2000); i++) {
      const kind = KINDS[i % KINDS.length];
      batch.push({
        content: `Turn ${i}: ${TOPICS[i % TOPICS.length]} ${i % 7 === 0 ? 'hit a timeout again' : 'was checked'}; change ${i} kept small, ticket HM-${i}.`,
        kind,
        importance: kind === 'prompt' ? 'temporary' : i % 97 === 0 ? 'important' : 'normal',
        host: i % 2 ? 'claude-code' : 'codex',
        sessionId: `s-${Math.floor(i / 40)}`,
        turnId: `t-${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      });
    }
    m.saveMany(batch);
  }
  const cols = m.database.prepare('SELECT name FROM pragma_table_info(\'frames\') WHERE name <> \'id\'').all().map((r) => r.name);
  const copy = m.database.prepare(
    `INSERT INTO frames (${cols.join(', ')}) SELECT ${cols
      .map((c) => (c === 'content' ? `replace(content, 'Turn ', 'Turn ' || ? || '.')` : c === 'turn_id' ? `turn_id || '-' || ?` : c === 'search_text' ? 'NULL' : c))
      .join(', ')} FROM frames WHERE id <= ? LIMIT ?`,
  );
  for (let k = 1; m.count({ includeRetired: true }) < FRAMES; k++) {
    const n = Math.min(SEEDED, FRAMES - m.count({ includeRetired: true }));
    m.database.transaction(() => copy.run(k, k, SEEDED, n))();
  }
  console.log(`mind: ${m.count({ includeRetired: true }).toLocaleString('en-US')} frames built in ${(ms(t0) / 1000).toFixed(1)} s`);
  m.close();
}

function startUi() {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, 'ui', '--no-open'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(out);
      if (m) resolve({ url: m[1], startMs: ms(t0), stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (c) => reject(new Error(`hive-mind ui exited ${c}`)));
  });
}

const row = (name, xs, base) => {
  const p50 = percentile(xs, 50);
  console.log(`${name.padEnd(52)} p50 ${p50.toFixed(1).padStart(8)} ms   p95 ${percentile(xs, 95).toFixed(1).padStart(8)} ms${base ? `   ${(p50 / base).toFixed(2)}x` : ''}`);
  return p50;
};

// server start-up against node -e 0
const nodeRuns = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  nodeRuns.push(ms(t0));
}
const startRuns = [];
for (let i = 0; i < RUNS; i++) {
  const s = await startUi();
  startRuns.push(s.startMs);
  await s.stop();
}
console.log('\nstart-up (process start to the URL printed)');
const nodeBase = row('node -e 0 (baseline)', nodeRuns);
row('hive-mind ui --no-open', startRuns, nodeBase);

// the page: first contentful paint, first rows, a search typed in the page
const ui = await startUi();
const profile = mkdtempSync(join(tmpdir(), 'hm-bench-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const paint = [];
const rows = [];
const searchPage = [];
const pageOlder = [];
for (let i = 0; i < RUNS; i++) {
  const page = await ctx.newPage();
  const t0 = process.hrtime.bigint();
  await page.goto(ui.url);
  await page.locator('button.row').first().waitFor();
  rows.push(ms(t0));
  paint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
  const box = page.getByRole('searchbox');
  await box.fill(QUERY);
  const t1 = process.hrtime.bigint();
  await box.press('Enter');
  await page.locator('.count', { hasText: 'Matches' }).waitFor();
  await page.locator('button.row mark').first().waitFor();
  searchPage.push(ms(t1));
  await box.fill('');
  await box.press('Enter');
  await page.locator('.count', { hasText: 'Frames 1–50' }).waitFor();
  const t2 = process.hrtime.bigint();
  await page.getByRole('button', { name: 'Older →' }).click();
  await page.locator('.count', { hasText: 'Frames 51–100' }).waitFor();
  pageOlder.push(ms(t2));
  await page.close();
}
await ctx.close();
rmSync(profile, { recursive: true, force: true });
await ui.stop();

const cliRuns = [];
let hits = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'mind', 'search', QUERY, '--json'], { env, encoding: 'utf8' });
  cliRuns.push(ms(t0));
  hits = JSON.parse(r.stdout).results.length;
}
const inproc = [];
{
  const m = Mind.open(personalMindPath(env), { readonly: true });
  for (let i = 0; i < RUNS * 4; i++) {
    const t0 = process.hrtime.bigint();
    m.search(QUERY, { limit: 1000 });
    inproc.push(ms(t0));
  }
  m.close();
}
console.log(`\nthe page over ${FRAMES.toLocaleString('en-US')} frames (${RUNS} runs)`);
row('first contentful paint (Chromium)', paint);
row('navigation to the first 50 rows', rows);
const cliBase = row(`search "${QUERY}" from the CLI (process, ${hits} hits)`, cliRuns);
row('the same search typed in the page, to marked rows', searchPage, cliBase);
row('Mind.search in process (limit 1000, what the page runs)', inproc);
row('next page (Older →) to its rows', pageOlder);
rmSync(home, { recursive: true, force: true });
