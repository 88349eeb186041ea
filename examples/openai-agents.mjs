// OpenAI Agents SDK for JavaScript (@openai/agents 0.14.x): a run whose every model call goes
// through hive-mind's callModelInputFilter, against any Responses API server.
//   node examples/openai-agents.mjs --base-url http://127.0.0.1:8080/v1 --model gpt-5-mini --budget 8000
import { Agent, run, setDefaultOpenAIKey, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import { compactionInputFilter } from '@hive-mind/adapters/openai-agents';
import { READ_FILE, SYSTEM, exampleArgs, progress, readFile, task } from './lib/task.mjs';

const args = exampleArgs();
setTracingDisabled(true); // traces would go to api.openai.com
process.env.OPENAI_BASE_URL = args.baseUrl; // read by the client the SDK creates
setDefaultOpenAIKey(args.apiKey);
setOpenAIAPI('responses');

const agent = new Agent({
  name: 'Reviewer',
  instructions: SYSTEM,
  model: args.model,
  tools: [
    tool({
      name: READ_FILE.name,
      description: READ_FILE.description,
      parameters: READ_FILE.parameters,
      strict: true,
      execute: async ({ path }) => readFile(path),
    }),
  ],
});

const p = progress();
const result = await run(agent, task(args.files), {
  maxTurns: args.maxSteps,
  callModelInputFilter: compactionInputFilter({
    budget: args.budget,
    onReport: p.onReport,
  }),
});
console.log(p.summary());
console.log(`answer: ${result.finalOutput}`);
