import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BasicCompactionEngine, MissingPackageError, TokenMeter, type Summarizer } from '@hive-mind/compaction';
import { importPeer } from '../src/peer.js';
import { codingSession } from './helpers.js';

// The packed-install test (test-support/packaging.test.ts) runs the real openai and anthropic
// summarizers where neither SDK is installed; these pin the loader's rules in the repository.
const dir = mkdtempSync(join(tmpdir(), 'hive-mind-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const missing = '@hive-mind/no-such-peer-package';

describe('optional peer dependencies', () => {
  it('turns "cannot find package" for the peer itself into MissingPackageError naming it and the install command', async () => {
    const err = await importPeer(missing, 'the test summarizer', () => import(missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPackageError);
    expect(err).toMatchObject({ code: 'MISSING_PACKAGE', packageName: missing });
    expect((err as Error).message).toBe(
      `the test summarizer needs the package ${missing}, which is not installed (an optional peer dependency of @hive-mind/compaction): run \`npm install ${missing}\``,
    );
  });

  it('rethrows a package that is installed but cannot load its own dependency, as Node said it', async () => {
    const broken = join(dir, 'broken-peer.mjs');
    writeFileSync(broken, "import 'hive-mind-missing-inner-dependency';\n");
    const err = await importPeer('broken-peer', 'the test summarizer', () => import(pathToFileURL(broken).href)).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(MissingPackageError);
    expect((err as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    expect((err as Error).message).toContain("'hive-mind-missing-inner-dependency'");
  });

  it('rethrows any other load failure unchanged', async () => {
    const thrower = join(dir, 'throwing-peer.mjs');
    writeFileSync(thrower, "throw new TypeError('peer failed to initialize');\n");
    await expect(importPeer('throwing-peer', 'x', () => import(pathToFileURL(thrower).href))).rejects.toThrow(TypeError);
  });

  it('the engine does not retry a missing package and says why the extractive checkpoint landed instead', async () => {
    let calls = 0;
    const needsPeer: Summarizer = {
      name: 'needs-peer',
      async summarize() {
        calls++;
        await importPeer(missing, 'the needs-peer summarizer', () => import(missing));
        throw new Error('unreachable');
      },
    };
    const b = codingSession(6);
    const engine = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: 2, summarizer: needsPeer, meter: new TokenMeter() });
    const result = await engine.compactIfNeeded(b.log);
    expect(calls).toBe(1);
    expect(result.compacted).toBe(true);
    expect(result.fallback?.from).toBe('needs-peer');
    expect(result.fallback?.reason).toContain(`needs the package ${missing}`);
    expect(result.fallback?.reason).toContain(`npm install ${missing}`);
  });
});
