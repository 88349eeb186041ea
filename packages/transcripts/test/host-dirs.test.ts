/** `hostDir`: each host's folder from its variable or its default, with the reason (host-dirs.ts). */
import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { HOST_TABLE, hostDir } from '../src/index.js';

const HOME = '/home/ada';

describe('hostDir', () => {
  const cases = [
    { host: 'claude-code', variable: 'CLAUDE_CONFIG_DIR', def: join(HOME, '.claude') },
    { host: 'codex', variable: 'CODEX_HOME', def: join(HOME, '.codex') },
    { host: 'pi', variable: 'PI_CODING_AGENT_DIR', def: join(HOME, '.pi', 'agent') },
    { host: 'hermes', variable: 'HERMES_HOME', def: join(HOME, '.hermes') },
    { host: 'openclaw', variable: 'OPENCLAW_STATE_DIR', def: join(HOME, '.openclaw') },
  ] as const;
  for (const c of cases) {
    it(`${c.host}: ${c.variable} unset or empty gives the default, set gives it (absolute)`, () => {
      expect(hostDir(c.host, { HOME })).toEqual({ host: c.host, dir: c.def, variable: c.variable, source: 'default', defaultDir: c.def, why: `${c.def} (default; ${c.variable} is not set)` });
      expect(hostDir(c.host, { HOME, [c.variable]: '  ' }).source).toBe('default');
      expect(hostDir(c.host, { HOME, [c.variable]: '/srv/cfg' })).toEqual({ host: c.host, dir: '/srv/cfg', variable: c.variable, source: 'env', defaultDir: c.def, why: '/srv/cfg (from ' + c.variable + ')' });
      expect(hostDir(c.host, { HOME, [c.variable]: 'rel/cfg' }).dir).toBe(resolve('rel/cfg'));
    });
  }
  it('pi expands ~ and ~/ in PI_CODING_AGENT_DIR (pi-mono getAgentDir); the others take the value as given', () => {
    expect(hostDir('pi', { HOME, PI_CODING_AGENT_DIR: '~/agents/pi' }).dir).toBe(join(HOME, 'agents', 'pi'));
    expect(hostDir('pi', { HOME, PI_CODING_AGENT_DIR: '~' }).dir).toBe(HOME);
    expect(hostDir('claude-code', { HOME, CLAUDE_CONFIG_DIR: '~/x' }).dir).toBe(resolve('~/x'));
  });
  it('cursor has no variable: always ~/.cursor', () => {
    expect(hostDir('cursor', { HOME, CLAUDE_CONFIG_DIR: '/x' })).toEqual({ host: 'cursor', dir: join(HOME, '.cursor'), source: 'default', defaultDir: join(HOME, '.cursor'), why: `${join(HOME, '.cursor')} (the only place it reads)` });
  });
  it('the session folders of `hive-mind sessions` come from the same folders', () => {
    const env = { HOME, CLAUDE_CONFIG_DIR: '/c', CODEX_HOME: '/x', PI_CODING_AGENT_DIR: '/p', HERMES_HOME: '/h' };
    expect(HOST_TABLE['claude-code'].root(env)).toBe('/c/projects');
    expect(HOST_TABLE.codex.root(env)).toBe('/x/sessions');
    expect(HOST_TABLE.pi.root(env)).toBe('/p/sessions');
    expect(HOST_TABLE.hermes.root(env)).toBe('/h/sessions');
    expect(HOST_TABLE.pi.root({ ...env, PI_CODING_AGENT_SESSION_DIR: '/s' })).toBe('/s');
    expect(HOST_TABLE['claude-code'].root({ HOME })).toBe(join(HOME, '.claude', 'projects'));
  });
});
