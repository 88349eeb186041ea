// Vercel AI SDK (ai 6.x): a generateText tool loop whose every step is compacted to the budget
// by hive-mind's prepareStep.
//   node examples/ai-sdk.mjs --base-url http://127.0.0.1:8080/v1 --model qwen3 --budget 8000
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { compactionPrepareStep } from '@hive-mind/adapters/ai-sdk';
import { READ_FILE, SYSTEM, exampleArgs, progress, readFile, task } from './lib/task.mjs';

const args = exampleArgs();
const provider = createOpenAICompatible({ name: 'example', baseURL: args.baseUrl, apiKey: args.apiKey });
const tools = {
  [READ_FILE.name]: tool({
    description: READ_FILE.description,
    inputSchema: jsonSchema(READ_FILE.parameters),
    execute: async ({ path }) => readFile(path),
  }),
};

const p = progress();
const result = await generateText({
  model: provider(args.model),
  system: SYSTEM,
  prompt: task(args.files),
  tools,
  stopWhen: stepCountIs(args.maxSteps),
  prepareStep: compactionPrepareStep({
    budget: args.budget,
    system: SYSTEM,
    tools,
    onReport: p.onReport,
  }),
});
console.log(p.summary());
console.log(`answer: ${result.text}`);
