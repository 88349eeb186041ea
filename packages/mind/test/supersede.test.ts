import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Mind, correctionOf, correctionReplaces } from '@hive-mind/mind';
import { tmp } from './helpers.js';

let dir: { dir: string; cleanup: () => void };
let path: string;
beforeEach(() => {
  dir = tmp('hm-supersede-');
  path = join(dir.dir, 'w.mind');
});
afterEach(() => dir.cleanup());

describe('a correction: the old value it names, its subject', () => {
  it.each([
    ['The admin dashboard now runs on port 7200, not 7142 any more.', ['7142']],
    ['We moved off esbuild; the bundler is now Vite.', ['esbuild']],
    ['We switched from jest to vitest for the unit tests.', ['jest']],
    ['The staging database is on Postgres 16 instead of MySQL.', ['mysql']],
    ['We replaced Redux with Zustand for the store.', ['redux']],
    ['Le tableau de bord tourne désormais sur le port 7200 au lieu de 7142.', ['7142']],
    ['Nous sommes passés de webpack à Vite pour le bundler.', ['webpack']],
    ['Das Dashboard läuft jetzt auf Port 7200 statt 7142.', ['7142']],
    ['Wir haben den Bundler von webpack auf Vite umgestellt.', ['webpack']],
    ['The admin dashboard now runs on port 7200.', []],
  ])('%s', (text, old) => {
    const c = correctionOf(text);
    expect(c).toBeDefined();
    expect(c!.old).toEqual(old);
  });

  it.each(['The admin dashboard runs on port 7142.', 'Use pnpm in this repo.', 'Is the dashboard now on port 7200?', 'Now run the tests.'])('no correction: %s', (text) => {
    expect(correctionOf(text)).toBeUndefined();
  });

  it('replaces only a frame about the same subject', () => {
    const c = correctionOf('The admin dashboard now runs on port 7200, not 7142 any more.')!;
    expect(correctionReplaces(c, 'The admin dashboard runs on port 7142.', 'environment', 'x')).toBe(true);
    expect(correctionReplaces(c, 'The billing API listens on port 9000.', 'environment', 'x')).toBe(false);
    const weak = correctionOf('The admin dashboard now runs on port 7200.')!;
    expect(correctionReplaces(weak, 'The admin dashboard runs on port 7142.', 'environment', 'x')).toBe(true);
    expect(correctionReplaces(weak, 'Release branches are cut every Monday.', 'fact', 'x')).toBe(false);
    // the same fact said again is not replaced by itself
    expect(correctionReplaces(weak, 'The admin dashboard runs on port 7200 now.', 'environment', 'x')).toBe(false);
  });
});

describe('a saved correction supersedes the old frame', () => {
  it('in one mind: the old one leaves search and recall, the new keeps its importance', () => {
    const m = Mind.open(path);
    const old = m.save({ content: 'The admin dashboard runs on port 7142.', kind: 'environment', importance: 'important', scope: 'workspace', workspace: 'w1' });
    const other = m.save({ content: 'The billing API listens on port 9000.', kind: 'environment', importance: 'normal', scope: 'workspace', workspace: 'w1' });
    const neu = m.save({ content: 'The admin dashboard now runs on port 7200, not 7142 any more.', kind: 'environment', importance: 'normal', scope: 'workspace', workspace: 'w1' });
    expect(m.get(old.id)!.supersededBy).toBe(neu.id);
    expect(m.get(neu.id)!.supersedes).toBe(old.id);
    expect(m.get(neu.id)!.importance).toBe('important');
    expect(m.get(other.id)!.supersededBy).toBeNull();
    expect(m.search('admin dashboard port').map((h) => h.id)).not.toContain(old.id);
    m.close();
  });

  it('a switch named by the old tool: "moved off esbuild" retires "switched from webpack to esbuild"', () => {
    const m = Mind.open(path);
    const old = m.save({ content: 'Switched the bundler from webpack to esbuild.', kind: 'decision', scope: 'workspace', workspace: 'w1' });
    const neu = m.save({ content: 'We moved off esbuild; the bundler is now Vite.', kind: 'decision', scope: 'workspace', workspace: 'w1' });
    expect(m.get(old.id)!.supersededBy).toBe(neu.id);
    m.close();
  });

  it('German and French corrections, and only within the same workspace', () => {
    const m = Mind.open(path);
    const de = m.save({ content: 'Das Dashboard läuft auf Port 7142.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    const elsewhere = m.save({ content: 'Das Dashboard läuft auf Port 7142.', kind: 'environment', scope: 'workspace', workspace: 'w2' });
    m.save({ content: 'Das Dashboard läuft jetzt auf Port 7200 statt 7142.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    expect(m.get(de.id)!.supersededBy).not.toBeNull();
    expect(m.get(elsewhere.id)!.supersededBy).toBeNull();
    const fr = m.save({ content: 'La base de données de facturation écoute sur le port 5432.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    m.save({ content: 'La base de données de facturation écoute désormais sur le port 6432.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    expect(m.get(fr.id)!.supersededBy).not.toBeNull();
    m.close();
  });

  it('a history turn or an unrelated statement supersedes nothing', () => {
    const m = Mind.open(path);
    const old = m.save({ content: 'The admin dashboard runs on port 7142.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    m.save({ content: 'Our CI now runs on GitHub Actions.', kind: 'environment', scope: 'workspace', workspace: 'w1' });
    expect(m.get(old.id)!.supersededBy).toBeNull();
    m.close();
  });
});
