// pi (@earendil-works/pi-coding-agent 0.74.x): an SDK session with hive-mind's extension, which
// compacts every model call's messages (the `context` event) and writes pi's own compaction
// (`session_before_compact`, here a final /compact) with the extractive summarizer. Against
// any OpenAI-compatible Chat Completions server.
//   node examples/pi.mjs --base-url http://127.0.0.1:8080/v1 --model qwen3 --budget 8000
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@earendil-works/pi-ai';
import { AuthStorage, DefaultResourceLoader, ModelRegistry, SessionManager, SettingsManager, createAgentSession, defineTool } from '@earendil-works/pi-coding-agent';
import { hiveMindCompaction } from '@hive-mind/adapters/pi';
import { READ_FILE, SYSTEM, exampleArgs, progress, readFile, task } from './lib/task.mjs';

const args = exampleArgs();
const dir = mkdtempSync(join(tmpdir(), 'hive-mind-pi-example-'));
try {
  const model = {
    id: args.model,
    name: args.model,
    api: 'openai-completions',
    provider: 'example',
    baseUrl: args.baseUrl,
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 4096,
  };
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey('example', args.apiKey);

  const p = progress();
  const resourceLoader = new DefaultResourceLoader({
    cwd: dir,
    agentDir: dir,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    systemPrompt: SYSTEM,
    extensionFactories: [
      hiveMindCompaction({
        budget: args.budget,
        onReport: p.onReport,
      }),
    ],
  });
  await resourceLoader.reload();

  const readFileTool = defineTool({
    name: READ_FILE.name,
    label: 'Read file',
    description: READ_FILE.description,
    parameters: Type.Object({ path: Type.String({ description: READ_FILE.parameters.properties.path.description }) }),
    execute: async (_id, { path }) => ({ content: [{ type: 'text', text: readFile(path) }], details: {} }),
  });

  const { session } = await createAgentSession({
    cwd: dir,
    agentDir: dir,
    model,
    thinkingLevel: 'off',
    authStorage,
    modelRegistry: ModelRegistry.inMemory(authStorage),
    resourceLoader,
    tools: [READ_FILE.name],
    customTools: [readFileTool],
    sessionManager: SessionManager.inMemory(dir),
    settingsManager: SettingsManager.inMemory({ retry: { enabled: false } }),
  });
  try {
    await session.prompt(task(args.files));
    const last = session.messages.at(-1);
    console.log(p.summary());
    console.log(`answer: ${last.content.filter((part) => part.type === 'text').map((part) => part.text).join('')}`);
    // pi's own compaction of the session, written by hive-mind (no model call).
    const c = await session.compact();
    console.log(`pi compaction: ${c.tokensBefore} tokens summarized by ${c.details?.summarizer}; summary starts: ${c.summary.split('\n').slice(0, 3).join(' / ')}`);
  } finally {
    session.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
