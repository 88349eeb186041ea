/**
 * The host table and the format table are the one list of each: the lists derived from them, and
 * the README's tables, follow them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMAT_TABLE, FORMATS, HOOK_HOSTS, HOST_NAMES, HOST_TABLE, HOSTS, SESSION_HOSTS, hostDir, hostList, hostRow } from '../src/index.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The first cell of each row of the README table whose header starts with `header`. */
function firstColumn(header: string): string[] {
  const lines = README.split('\n');
  const at = lines.findIndex((l) => l.startsWith(header));
  const rows: string[] = [];
  for (const l of lines.slice(at + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(/^\|\s*`([^`]+)`/.exec(l)?.[1] ?? l);
  }
  return rows;
}

describe('host table', () => {
  it('derives the host lists in table order', () => {
    expect(HOST_NAMES).toEqual(HOSTS.map((r) => r.id));
    expect(SESSION_HOSTS).toEqual(['claude-code', 'codex', 'pi', 'hermes']);
    expect(HOOK_HOSTS).toEqual(['claude-code', 'codex', 'cursor', 'openclaw', 'hermes']);
    expect(Object.keys(HOST_TABLE)).toEqual([...SESSION_HOSTS]);
    expect(hostList(HOOK_HOSTS, 'or')).toBe('claude-code, codex, cursor, openclaw or hermes');
    expect(hostRow('emacs')).toBeUndefined();
  });

  it('every row: a folder rule the resolver follows, a known format, a session rule whose folder is under its own', () => {
    const env = { HOME: '/home/u' };
    for (const r of HOSTS) {
      const d = hostDir(r.id, env);
      expect(d.defaultDir).toBe(['/home/u', ...r.config.base].join('/'));
      if ('variable' in r.config) expect(hostDir(r.id, { ...env, [r.config.variable]: '/elsewhere' }).dir).toBe('/elsewhere');
      if (r.format !== null) expect(FORMATS).toContain(r.format);
      if ('sessions' in r) expect(HOST_TABLE[r.id].root(env)).toBe(`${d.dir}/${r.sessions.sub}`);
    }
    expect(() => hostDir('emacs' as never, env)).toThrow(/unknown host "emacs"/);
  });

  it("the README's host table lists exactly the rows, in order", () => {
    expect(firstColumn('| id | name |')).toEqual([...HOST_NAMES]);
  });
});

describe('format table', () => {
  it("derives FORMATS, and the README's format table lists exactly the rows, in order", () => {
    expect(FORMATS).toEqual(FORMAT_TABLE.map((f) => f.id));
    expect(firstColumn('| format | file | shape |')).toEqual([...FORMATS]);
  });
});
