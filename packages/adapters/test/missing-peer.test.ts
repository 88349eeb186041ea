import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './wire.js';

/**
 * The built package installed alone (its workspace dependencies linked, no framework SDKs) in
 * a temp folder: what a user who did not install the optional peer gets. Needs `npx tsc -b packages/adapters`.
 */
const dir = mkdtempSync(join(tmpdir(), 'hm-adapters-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function install(): void {
  const scope = join(dir, 'node_modules', '@hive-mind');
  mkdirSync(join(scope, 'adapters'), { recursive: true });
  cpSync(join(REPO, 'packages/adapters/package.json'), join(scope, 'adapters/package.json'));
  cpSync(join(REPO, 'packages/adapters/dist'), join(scope, 'adapters/dist'), { recursive: true });
  for (const p of ['session', 'compaction']) symlinkSync(join(REPO, 'packages', p), join(scope, p));
}

function run(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: dir, encoding: 'utf8' });
}

describe('a missing optional SDK', () => {
  install();

  it('loads without the framework: the AI SDK adapter imports only its types', () => {
    const out = run(`
      import { compactionPrepareStep } from '@hive-mind/adapters/ai-sdk';
      const step = compactionPrepareStep({ budget: 5000 });
      const r = await step({ stepNumber: 0, steps: [], messages: [{ role: 'user', content: 'hi' }] });
      console.log(JSON.stringify(r.messages));`);
    expect(JSON.parse(out)).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('measuring tool definitions without "ai" installed is an error naming the package', () => {
    const out = run(`
      import { compactionPrepareStep } from '@hive-mind/adapters/ai-sdk';
      const step = compactionPrepareStep({ budget: 5000, tools: { t: { description: 'x', inputSchema: {} } } });
      try { await step({ stepNumber: 0, steps: [], messages: [] }); console.log('no error'); }
      catch (e) { console.log(e.name + ': ' + e.message); }`);
    expect(out.trim()).toBe('MissingPeerError: @hive-mind/adapters/ai-sdk needs the optional peer dependency "ai", which is not installed: npm install ai');
  });
});

describe('a missing optional SDK (the other subpaths)', () => {
  it('the Agents SDK and pi adapters load and compact without their frameworks (types only)', () => {
    const out = run(`
      import { compactAgentInput } from '@hive-mind/adapters/openai-agents';
      import { compactPiMessages } from '@hive-mind/adapters/pi';
      const a = await compactAgentInput([{ role: 'user', content: 'hi' }], { budget: 5000 });
      const p = await compactPiMessages([{ role: 'user', content: 'hi', timestamp: 1 }], { budget: 5000 });
      console.log(JSON.stringify([a.messages, p.messages]));`);
    expect(JSON.parse(out)).toEqual([[{ role: 'user', content: 'hi' }], [{ role: 'user', content: 'hi', timestamp: 1 }]]);
  });

  it('importing the LangChain adapter without "langchain" installed is an error naming the package', () => {
    const out = run(`
      try { await import('@hive-mind/adapters/langchain'); console.log('no error'); }
      catch (e) { console.log(e.name + ': ' + e.message); }`);
    expect(out.trim()).toBe('MissingPeerError: @hive-mind/adapters/langchain needs the optional peer dependency "langchain", which is not installed: npm install langchain');
  });
});
