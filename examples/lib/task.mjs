// The task every example runs: review N generated source files one read_file call at a time
// and report the TODO markers. Each file is ~1,500 tokens, so a 30-file review (45k tokens of
// tool results) cannot fit a small budget without compaction.
import { parseArgs } from 'node:util';

export const SYSTEM = 'You are a code reviewer. Read the files you are asked about with read_file, one call per file, then list every TODO marker you found with its file.';

/** The user's request for `files` files. */
export function task(files) {
  const list = Array.from({ length: files }, (_, i) => `src/module-${i + 1}.ts`).join(', ');
  return `Review these files and list their TODO markers: ${list}.`;
}

export const READ_FILE = {
  name: 'read_file',
  description: 'Read a source file of the repository and return its text.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Path relative to the repository root, e.g. src/module-1.ts' } },
    required: ['path'],
    additionalProperties: false,
  },
};

/** The text of a generated file: 80 numbered lines and one TODO marker (deterministic per path). */
export function readFile(path) {
  const n = [...String(path)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const lines = [`// ${path}`];
  for (let i = 1; i <= 80; i++) {
    if (i === 10 + (n % 60)) lines.push(`  // TODO(${path}:${i}): handle the overflow when total exceeds ${n % 9973}`);
    else lines.push(`export function step${i}(input: number): number { return input * ${(n + i) % 97} + ${i}; }`);
  }
  return lines.join('\n');
}

/** The flags every example takes. */
export function exampleArgs(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string', default: process.env.OPENAI_BASE_URL },
      'api-key': { type: 'string', default: process.env.OPENAI_API_KEY ?? 'not-needed-for-a-local-server' },
      model: { type: 'string', default: 'gpt-test' },
      budget: { type: 'string', default: '8000' },
      files: { type: 'string', default: '30' },
      'max-steps': { type: 'string', default: '80' },
    },
  });
  if (!values['base-url']) {
    console.error('usage: node examples/<name>.mjs --base-url URL [--model M] [--budget TOKENS] [--files N] [--max-steps N]');
    console.error('  --base-url: the model server (OpenAI-compatible /v1 URL, or the Anthropic base URL for langchain.mjs); also OPENAI_BASE_URL');
    process.exit(2);
  }
  const int = (k) => {
    const v = Number(values[k]);
    if (!Number.isInteger(v) || v <= 0) {
      console.error(`--${k} must be a positive integer, got ${values[k]}`);
      process.exit(2);
    }
    return v;
  };
  return { baseUrl: values['base-url'], apiKey: values['api-key'], model: values.model, budget: int('budget'), files: int('files'), maxSteps: int('max-steps') };
}

/** One line per model call: tokens sent against the limit, and what a compaction did. */
export function stepLine(step, report) {
  const c = report.compaction;
  const what = c ? `; compacted ${c.shadowedEvents} messages (${c.tokensBefore} -> ${c.tokensAfter} tokens, ${c.summaryTokens}-token checkpoint, ${c.summarizer})` : '';
  return `step ${step}: ${report.tokens} of ${report.limit} tokens${what}`;
}

/** An `onReport` that prints one line per model call and counts the calls and compactions. */
export function progress() {
  const p = {
    steps: 0,
    compactions: 0,
    onReport: (report) => {
      if (report.compacted) p.compactions++;
      console.log(stepLine(p.steps++, report));
    },
    summary: () => `steps: ${p.steps}, compactions: ${p.compactions}`,
  };
  return p;
}
