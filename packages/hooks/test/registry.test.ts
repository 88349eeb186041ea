/**
 * The host table (registry.ts) is the one list of hosts: the README's host list and its
 * per-host sections, the adapters and the installers all follow it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOSTS, HOST_IDS, installableHosts, loadAdapter, loadInstaller } from '../src/index.js';
import { hookUsage } from '../src/usage.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('host table', () => {
  it('every row loads an adapter and an installer for its own id', async () => {
    for (const id of HOST_IDS) {
      expect((await loadAdapter(id))?.host).toBe(id);
      expect((await loadInstaller(id))?.host).toBe(id);
    }
    expect(installableHosts()).toEqual([...HOST_IDS]);
    expect(await loadInstaller('emacs')).toBeUndefined();
    expect(await loadAdapter('__proto__')).toBeUndefined();
  });

  it('`hive-mind hook --help` lists every host with its adapter\'s events', async () => {
    const rows = (await hookUsage()).split('\n').filter((l) => /^ {2}\S/.test(l));
    expect(rows.map((l) => l.trim().split(/\s+/)[0])).toEqual([...HOST_IDS]);
    for (const id of HOST_IDS) expect(rows.find((l) => l.trim().startsWith(id + ' '))).toContain((await loadAdapter(id))!.events.join(', '));
  });

  it('the README lists exactly the table, in order, with a section per host', () => {
    const line = /^HOST is (.*)$/m.exec(README)?.[1] ?? '';
    expect([...line.matchAll(/`([a-z-]+)`/g)].map((m) => m[1])).toEqual([...HOST_IDS]);
    const sections = [...README.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    for (const h of HOSTS) expect(sections).toContain(h.name);
  });
});
