import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { redactSecrets, redactionTypes, secretRuleSet, looksRandom } from '@hive-mind/mind';
import { ENV_DUMP_CASE, PRESET_CASES } from './secrets.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** What one preset rule reports on `text` by itself, through the rule API (no hive-mind code involved). */
function ruleReports(id: string, text: string): Array<[number, number]> {
  const rule = (rules as unknown as Array<{ meta: { id: string }; create: (c: unknown, o: unknown) => { file?: (s: unknown) => unknown } }>).find((r) => r.meta.id === id)!;
  const ranges: Array<[number, number]> = [];
  const ctx = { createTranslator: () => () => '', report: (d: { range: [number, number] }) => ranges.push(d.range), ignore: () => {} };
  const h = rule.create(ctx, id.endsWith('-aws') ? { enableIDScanRule: true } : {});
  for (const ext of ['.txt', '.json']) h.file?.({ content: text, filePath: `memory${ext}`, ext, contentType: 'text' });
  return ranges;
}

describe('secrets: the maintained rule set', () => {
  it('runs every scanner rule of the installed preset, and names its version', () => {
    const set = secretRuleSet();
    const pkg = JSON.parse(readFileSync(join(REPO, 'node_modules/@secretlint/secretlint-rule-preset-recommend/package.json'), 'utf8'));
    expect(set.version).toBe(pkg.version);
    const scanners = (rules as unknown as Array<{ meta: { id: string } }>).map((r) => r.meta.id).filter((id) => !id.endsWith('filter-comments'));
    expect(set.rules).toEqual(scanners);
    for (const id of scanners) expect(redactionTypes()).toContain(id.replace('@secretlint/secretlint-rule-', ''));
  });

  it('has a generated value for every preset rule, and each rule reports its value on its own', () => {
    for (const id of secretRuleSet().rules) expect(PRESET_CASES.some((c) => c.rule === id), id).toBe(true);
    for (const c of PRESET_CASES) {
      const start = c.text.indexOf(c.secret);
      expect(ruleReports(c.rule, c.text).some(([s, e]) => s <= start && e > start), `${c.rule} on ${c.name}`).toBe(true);
    }
  });

  it.each(PRESET_CASES)('redacts $name ($rule), idempotently', ({ text, secret }) => {
    const r = redactSecrets(text);
    expect(r.text).not.toContain(secret);
    expect(r.redactions.length).toBeGreaterThan(0);
    expect(redactSecrets(r.text)).toEqual({ text: r.text, redactions: [] });
  });

  it('a secretlint-disable comment in stored text does not switch redaction off', () => {
    const c = PRESET_CASES.find((x) => x.type === 'groq')!;
    const r = redactSecrets(`// secretlint-disable\n${c.text}\n// secretlint-enable`);
    expect(r.text).not.toContain(c.secret);
  });
});

describe('secrets: a value under a secret-sounding name must look generated', () => {
  it('keeps code and prose that name a token or key', () => {
    for (const t of [
      'function f(token: string) { return { token: given } }',
      'const HTTP_TOKEN_FILE = "mcp-http.token"',
      'the bearer token: send it in the header',
      'apiKey: loopbackKey is what the test passes',
      'api_key: required',
    ]) expect(redactSecrets(t).text, t).toBe(t);
  });

  it('still redacts generated values and any password', () => {
    for (const [t, secret] of [
      ['token: a1b2c3d4e5f6', 'a1b2c3d4e5f6'],
      ['API_KEY=QwErTyUiOpAsDfGhJkLzXc', 'QwErTyUiOpAsDfGhJkLzXc'],
      ['"client_secret": "correcthorse"', 'correcthorse'],
      ['password: hunter', 'hunter'],
    ] as const) expect(redactSecrets(t).text, t).not.toContain(secret);
  });
});

describe('secrets: entropy of KEY=value lines in env dumps', () => {
  it('redacts random values under names no keyword rule knows, and keeps every ordinary line', () => {
    const r = redactSecrets(ENV_DUMP_CASE.text);
    for (const s of ENV_DUMP_CASE.secrets) expect(r.text).not.toContain(s);
    expect(r.redactions).toEqual(['high-entropy', 'high-entropy', 'high-entropy']);
    for (const line of ENV_DUMP_CASE.text.split('\n')) if (!ENV_DUMP_CASE.secrets.some((s) => line.includes(s))) expect(r.text).toContain(line);
  });

  it('words, versions, paths, identifiers and short values do not look random', () => {
    for (const v of ['production', 'en_US.UTF-8', '8.15.4-canary.20240301', 'buildbox-eu-west-1', 'xterm-256color', 'github-actions-runner-42', 'aaaaaaaaaaaaaaaaaaaa11', 'Abc123']) expect(looksRandom(v), v).toBe(false);
    for (const v of [ENV_DUMP_CASE.secrets[0]!, ENV_DUMP_CASE.secrets[1]!, 'k2J9xQ7mV4pL8sN3wR6tY1zB']) expect(looksRandom(v), v).toBe(true);
  });

  it('ordinary code and prose are not redacted: every source file and README of this repository passes unchanged', () => {
    // tests hold fake keys on purpose; redact.ts, secret-rules.ts and the mind README show the rules' own examples
    const files: string[] = [join(REPO, 'README.md')];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (name === 'node_modules' || name === 'dist' || name === 'test' || name.startsWith('.')) continue;
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|mjs|md)$/.test(name) && !['redact.ts', 'secret-rules.ts'].some((f) => p === join(REPO, 'packages/mind/src/safety', f)) && p !== join(REPO, 'packages/mind/README.md')) files.push(p);
      }
    };
    for (const d of ['packages', 'bench']) walk(join(REPO, d));
    expect(files.length).toBeGreaterThan(50);
    const hits: string[] = [];
    for (const f of files) {
      const r = redactSecrets(readFileSync(f, 'utf8'));
      if (r.redactions.length) hits.push(`${f.slice(REPO.length)}: ${r.redactions.join(',')}`);
    }
    expect(hits).toEqual([]);
  });
});
