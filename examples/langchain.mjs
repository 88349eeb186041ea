// LangChain.js v1 (langchain 1.5.x, @langchain/anthropic 1.5.x): createAgent with hive-mind's
// compaction middleware, against any Anthropic Messages API server.
//   node examples/langchain.mjs --base-url http://127.0.0.1:8080 --model claude-sonnet-5-5 --budget 8000
import { createAgent, tool } from 'langchain';
import { ChatAnthropic } from '@langchain/anthropic';
import { compactionMiddleware } from '@hive-mind/adapters/langchain';
import { READ_FILE, SYSTEM, exampleArgs, progress, readFile, task } from './lib/task.mjs';

const args = exampleArgs();
const readFileTool = tool(async ({ path }) => readFile(path), { name: READ_FILE.name, description: READ_FILE.description, schema: READ_FILE.parameters });

const p = progress();
const agent = createAgent({
  model: new ChatAnthropic({ model: args.model, anthropicApiUrl: args.baseUrl, apiKey: args.apiKey, maxRetries: 0 }),
  tools: [readFileTool],
  systemPrompt: SYSTEM,
  middleware: [
    compactionMiddleware({
      budget: args.budget,
      onReport: p.onReport,
    }),
  ],
});

const result = await agent.invoke({ messages: [{ role: 'user', content: task(args.files) }] }, { recursionLimit: 2 * args.maxSteps + 10 });
const last = result.messages.at(-1);
console.log(p.summary());
console.log(`answer: ${typeof last.content === 'string' ? last.content : last.content.map((part) => part.text ?? '').join('')}`);
