import { afterEach, describe, expect, it } from 'vitest';
import { TokenMeter, CHECKPOINT_OPEN } from '@hive-mind/compaction';
import { startOpenAIChatServer, type OpenAIChatServer } from '../../../test-support/llm-servers.js';
import { pairingProblems, requestTokens, runExample } from './wire.js';
// @ts-expect-error: a plain .mjs module without types
import { readFile } from '../../../examples/lib/task.mjs';

const FILES = 30;
const BUDGET = 6000;

const todo = (i: number): string => (readFile(`src/module-${i}.ts`) as string).split('\n').find((l) => l.includes('TODO'))!.trim();

let server: OpenAIChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('examples/ai-sdk.mjs (real ai 6.x generateText against the loopback Chat Completions server)', () => {
  it('a 30-file tool loop stays under the budget on every step and never sends an orphaned tool result', async () => {
    server = await startOpenAIChatServer({
      // Like a real model, each step reports the previous file's TODO before reading the next.
      script: (_req, i) =>
        i < FILES
          ? { content: i ? `src/module-${i}.ts: ${todo(i)}. Next file.` : null, tool_calls: [{ id: `call_${i + 1}`, name: 'read_file', arguments: { path: `src/module-${i + 1}.ts` } }] }
          : `Found ${FILES} TODO markers.`,
    });
    const r = await runExample('ai-sdk.mjs', ['--base-url', server.v1Url, '--budget', String(BUDGET), '--files', String(FILES)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`answer: Found ${FILES} TODO markers.`);

    const requests = server.completionRequests;
    expect(requests).toHaveLength(FILES + 1);
    const meter = new TokenMeter();
    const tokens = requests.map((q) => requestTokens('chat', q.body, meter));
    for (const [i, q] of requests.entries()) {
      expect(pairingProblems('chat', q.body), `request ${i}`).toEqual([]);
      expect(tokens[i], `request ${i}`).toBeLessThanOrEqual(BUDGET);
    }
    // Uncompacted, the last request would carry all 30 results (~45k tokens): compaction ran, more than once.
    const withCheckpoint = requests.filter((q) => JSON.stringify(q.body.messages).includes(CHECKPOINT_OPEN));
    expect(withCheckpoint.length).toBeGreaterThan(0);
    const compactions = Number(r.stdout.match(/compactions: (\d+)/)?.[1]);
    expect(compactions).toBeGreaterThan(1);
    // The newest result always reaches the model verbatim, with its call.
    const last = requests[FILES]!.body.messages as any[];
    expect(last.at(-1)).toMatchObject({ role: 'tool', tool_call_id: `call_${FILES}` });
    expect(last.at(-1).content).toContain(`// src/module-${FILES}.ts`);
    // The system prompt and the user's request are never compacted away.
    expect(last[0].role).toBe('system');
    expect(JSON.stringify(last)).toContain('src/module-1.ts');
  });
});
