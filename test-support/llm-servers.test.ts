/**
 * The scripted model servers, driven by the official SDK clients
 * (@anthropic-ai/sdk, openai) as the callers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import {
  startAnthropicServer,
  startOpenAIChatServer,
  startResponsesServer,
  anthropicRequestText,
  chatRequestText,
  responsesRequestText,
  type ScriptedServer,
} from './llm-servers.js';

const servers: ScriptedServer[] = [];
async function track<T extends ScriptedServer>(p: Promise<T>): Promise<T> {
  const s = await p;
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const anthropic = (url: string, extra: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) =>
  new Anthropic({ baseURL: url, apiKey: 'sk-ant-unit', maxRetries: 0, ...extra });
const openai = (url: string, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ baseURL: url, apiKey: 'sk-unit', maxRetries: 0, ...extra });

const userMsg = (text: string) => [{ role: 'user' as const, content: text }];

/** A raw request, resolving with status and body, or rejecting on a socket error. */
function rawRequest(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('AnthropicServer', () => {
  it('answers a non-streaming message and records the request', async () => {
    const s = await track(startAnthropicServer({ script: ['Hello there.'] }));
    const msg = await anthropic(s.url).messages.create({ model: 'claude-x', max_tokens: 100, system: 'be brief', messages: userMsg('hi server') });
    expect(msg.content).toEqual([{ type: 'text', text: 'Hello there.' }]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.model).toBe('claude-x');
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    expect(msg.usage.output_tokens).toBe(3); // ceil(12 chars / 4)
    expect(s.messageRequests).toHaveLength(1);
    const r = s.messageRequests[0]!;
    expect(r.headers['x-api-key']).toBe('sk-ant-unit');
    expect(r.body.max_tokens).toBe(100);
    expect(anthropicRequestText(r.body)).toContain('hi server');
    expect(anthropicRequestText(r.body)).toContain('be brief');
    expect(r.outcome).toMatchObject({ status: 200, kind: 'ok', finished: true });
  });

  it('streams text, thinking and tool_use with the documented event sequence', async () => {
    const s = await track(
      startAnthropicServer({
        script: [
          {
            content: [
              { type: 'thinking', thinking: 'The user wants the weather in Paris.' },
              { type: 'text', text: 'Let me look that up for you.' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', units: 'C' } },
            ],
            usage: { input_tokens: 1234 },
            chunkSize: 5,
          },
        ],
      }),
    );
    const stream = anthropic(s.url).messages.stream({ model: 'claude-x', max_tokens: 100, messages: userMsg('weather?') });
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    const final = await stream.finalMessage();
    // Collapse consecutive duplicates to check the shape of the sequence.
    const shape = types.filter((t, i) => t !== types[i - 1]);
    expect(shape).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_stop', // thinking (+ signature_delta)
      'content_block_start', 'content_block_delta', 'content_block_stop', // text
      'content_block_start', 'content_block_delta', 'content_block_stop', // tool_use
      'message_delta',
      'message_stop',
    ]);
    expect(types.filter((t) => t === 'content_block_delta').length).toBeGreaterThan(6);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.input_tokens).toBe(1234);
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'The user wants the weather in Paris.' });
    expect((final.content[0] as { signature: string }).signature).toMatch(/^sig_/);
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'Let me look that up for you.' });
    expect(final.content[2]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', units: 'C' } });
  });

  it('reports stop_reason max_tokens when scripted', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'cut o', stop_reason: 'max_tokens', usage: { output_tokens: 16 } }] }));
    const final = await anthropic(s.url).messages.stream({ model: 'm', max_tokens: 16, messages: userMsg('long story') }).finalMessage();
    expect(final.stop_reason).toBe('max_tokens');
    expect(final.usage.output_tokens).toBe(16);
  });

  it('answers count_tokens and lists models', async () => {
    const s = await track(startAnthropicServer());
    const c = anthropic(s.url);
    const count = await c.messages.countTokens({ model: 'm', messages: userMsg('x'.repeat(400)) });
    expect(count.input_tokens).toBeGreaterThanOrEqual(100);
    const models = await c.models.list();
    expect(models.data.map((m) => m.id)).toContain('claude-sonnet-4-5');
    // Claude Code's startup probe when nonessential traffic is allowed.
    expect((await rawRequest(s.url, 'HEAD', '/api/hello')).status).toBe(200);
    expect(s.unknownRequests).toEqual([]);
  });

  it('takes replies from a function of the request', async () => {
    const s = await track(startAnthropicServer({ script: (req, i) => `echo ${i}: ${anthropicRequestText(req.body)}` }));
    const c = anthropic(s.url);
    const a = await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('one') });
    const b = await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('two') });
    expect(a.content[0]).toMatchObject({ text: 'echo 0: one' });
    expect(b.content[0]).toMatchObject({ text: 'echo 1: two' });
  });

  it('answers 500 naming the request when the script is exhausted, and uses a fallback when given', async () => {
    const s = await track(startAnthropicServer({ script: ['only one'] }));
    const c = anthropic(s.url);
    await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') });
    const err = await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('b') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as Error).message).toContain('no scripted reply left for request #1');
    expect(s.requests[1]!.outcome.kind).toBe('script-exhausted');
    s.fallback = 'fallback';
    const ok = await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('c') });
    expect(ok.content[0]).toMatchObject({ text: 'fallback' });
  });

  it('injects 429 with retry-after, and the SDK retries into the next scripted reply', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'status', status: 429, retryAfter: 7 } }] }));
    const err = await anthropic(s.url).messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const e = err as InstanceType<typeof Anthropic.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('7');
    expect((e.error as { error: { type: string } }).error.type).toBe('rate_limit_error');

    s.enqueue({ fault: { kind: 'status', status: 429, retryAfter: 0 } }, 'after retry');
    const msg = await anthropic(s.url, { maxRetries: 1 }).messages.create({ model: 'm', max_tokens: 10, messages: userMsg('b') });
    expect(msg.content[0]).toMatchObject({ text: 'after retry' });
    expect(s.messageRequests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0', '1']);
  });

  it('injects 500 api_error and 529 overloaded_error', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'status', status: 500 } }, { fault: { kind: 'status', status: 529 } }] }));
    const c = anthropic(s.url);
    const e500 = (await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(e500.status).toBe(500);
    expect((e500.error as { error: { type: string } }).error.type).toBe('api_error');
    const e529 = (await c.messages.create({ model: 'm', max_tokens: 10, messages: userMsg('b') }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(e529.status).toBe(529);
    expect((e529.error as { error: { type: string; message: string } }).error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
  });

  it('hangs until the client times out, then releases the socket', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'hang' } }] }));
    const err = await anthropic(s.url, { timeout: 300 }).messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(s.requests[0]!.outcome.kind).toBe('hang');
    expect(s.requests[0]!.outcome.status).toBeUndefined();
    await waitUntil(() => s.hangingRequests === 0);
    expect(s.requests[0]!.outcome.clientAborted).toBe(true);
  });

  it('close() ends a hung request and leaves no open socket', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'hang' } }] }));
    const pending = rawRequest(s.url, 'POST', '/v1/messages', { model: 'm', max_tokens: 1, messages: userMsg('a') });
    pending.catch(() => undefined); // asserted below
    await s.waitForRequests(1);
    await waitUntil(() => s.hangingRequests === 1);
    await s.close();
    await expect(pending).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(s.openSockets).toBe(0);
  });

  it('resets the connection', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'reset' } }] }));
    const err = await anthropic(s.url).messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it('sends a garbage body', async () => {
    const s = await track(startAnthropicServer({ script: [{ fault: { kind: 'garbage', body: '{"id": "msg_1", "content": [' } }] }));
    const err = await anthropic(s.url).messages.create({ model: 'm', max_tokens: 10, messages: userMsg('a') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toMatch(/JSON|Unexpected end/i);
  });

  it('truncates a stream before message_stop', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'abcdefghijklmnopqrstuvwxyz', chunkSize: 4, fault: { kind: 'truncate', afterEvents: 4 } }] }));
    const stream = anthropic(s.url).messages.stream({ model: 'm', max_tokens: 10, messages: userMsg('a') });
    const seen: string[] = [];
    stream.on('text', (t) => seen.push(t));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(seen.join('')).toBe('abcdefgh'); // two deltas after message_start + content_block_start
    expect(s.requests[0]!.outcome.eventsSent).toBe(4);
  });

  it('truncates a stream by destroying the socket', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'abcdefgh', fault: { kind: 'truncate', afterEvents: 2, mode: 'destroy' } }] }));
    const stream = anthropic(s.url).messages.stream({ model: 'm', max_tokens: 10, messages: userMsg('a') });
    await expect(stream.finalMessage()).rejects.toThrow();
  });

  it('sends an in-stream error event', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'partial answer', fault: { kind: 'stream-error', afterEvents: 3, message: 'Overloaded' } }] }));
    const stream = anthropic(s.url).messages.stream({ model: 'm', max_tokens: 10, messages: userMsg('a') });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String(err)).toContain('overloaded_error');
  });

  it('paces a slow stream and notices the client aborting it', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'x'.repeat(60), chunkSize: 2, delayMs: 40 }] }));
    const stream = anthropic(s.url).messages.stream({ model: 'm', max_tokens: 10, messages: userMsg('a') });
    let deltas = 0;
    const err = await (async () => {
      for await (const ev of stream) {
        if (ev.type === 'content_block_delta' && ++deltas === 3) stream.abort();
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIUserAbortError);
    await waitUntil(() => s.requests[0]!.outcome.clientAborted);
    expect(s.requests[0]!.outcome.finished).toBe(false);
    expect(s.requests[0]!.outcome.eventsSent).toBeLessThan(30);
    expect(s.hangingRequests).toBe(0);
  });

  it('stalls mid-stream until the client gives up', async () => {
    const s = await track(startAnthropicServer({ script: [{ content: 'abc', fault: { kind: 'stall', afterEvents: 2 } }] }));
    const controller = new AbortController();
    const stream = anthropic(s.url).messages.stream({ model: 'm', max_tokens: 10, messages: userMsg('a') }, { signal: controller.signal });
    stream.on('streamEvent', (ev) => {
      if (ev.type === 'content_block_start') controller.abort();
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(s.requests[0]!.outcome.eventsSent).toBe(2);
    await waitUntil(() => s.hangingRequests === 0);
  });

  it('records unknown paths and answers 404', async () => {
    const s = await track(startAnthropicServer());
    const r = await rawRequest(s.url, 'GET', '/v1/something?x=1');
    expect(r.status).toBe(404);
    expect(s.unknownRequests.map((u) => [u.method, u.path, u.query])).toEqual([['GET', '/v1/something', { x: '1' }]]);
  });

  it('rejects a body that is not JSON with 400', async () => {
    const s = await track(startAnthropicServer({ script: ['never'] }));
    const r = await new Promise<number>((resolve, reject) => {
      const req = http.request(s.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{not json');
    });
    expect(r).toBe(400);
    expect(s.requests[0]!.bodyError).toMatch(/invalid JSON/);
    expect(s.remainingReplies).toBe(1);
  });
});

describe('OpenAIChatServer', () => {
  it('answers non-streaming with tool calls and usage', async () => {
    const s = await track(
      startOpenAIChatServer({ script: [{ content: null, tool_calls: [{ id: 'call_1', name: 'lookup', arguments: { q: 'paris' } }], usage: { prompt_tokens: 500 } }] }),
    );
    const r = await openai(s.v1Url).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'find paris' }] });
    expect(r.object).toBe('chat.completion');
    expect(r.choices[0]!.finish_reason).toBe('tool_calls');
    expect(r.choices[0]!.message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"paris"}' } }]);
    expect(r.usage).toMatchObject({ prompt_tokens: 500, total_tokens: 500 + r.usage!.completion_tokens });
    expect(chatRequestText(s.completionRequests[0]!.body)).toBe('sys\nfind paris');
    expect(s.completionRequests[0]!.headers.authorization).toBe('Bearer sk-unit');
  });

  it('streams chunks ending in [DONE], with usage when asked', async () => {
    const s = await track(startOpenAIChatServer({ script: [{ content: 'The quick brown fox jumps.', chunkSize: 4 }] }));
    const stream = await openai(s.v1Url).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null = null;
    let usage: unknown;
    let chunks = 0;
    for await (const c of stream) {
      chunks++;
      if (c.choices[0]?.delta.content) text += c.choices[0].delta.content;
      if (c.choices[0]?.finish_reason) finish = c.choices[0].finish_reason;
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe('The quick brown fox jumps.');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ completion_tokens: 7 });
    expect(chunks).toBe(1 + 7 + 1 + 1); // role, 7 content deltas, finish, usage
    expect(s.requests[0]!.outcome.finished).toBe(true);
  });

  it('streams tool call deltas that the SDK reassembles, and finish_reason length', async () => {
    const s = await track(
      startOpenAIChatServer({
        script: [{ tool_calls: [{ name: 'write', arguments: { path: 'a.txt', text: 'hello world' } }], chunkSize: 5 }, { content: 'trunc', finish_reason: 'length' }],
      }),
    );
    const c = openai(s.v1Url);
    const final = await c.chat.completions.stream({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }] }).finalChatCompletion();
    expect(final.choices[0]!.message.tool_calls![0]).toMatchObject({ type: 'function', function: { name: 'write', arguments: '{"path":"a.txt","text":"hello world"}' } });
    const r = await c.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }] });
    expect(r.choices[0]!.finish_reason).toBe('length');
  });

  it('lists models', async () => {
    const s = await track(startOpenAIChatServer({ models: ['a-model', 'b-model'] }));
    const page = await openai(s.v1Url).models.list();
    expect(page.data.map((m) => m.id)).toEqual(['a-model', 'b-model']);
  });

  it('injects 429, 500 and 529 with OpenAI error bodies', async () => {
    const s = await track(
      startOpenAIChatServer({
        script: [{ fault: { kind: 'status', status: 429, retryAfter: 3 } }, { fault: { kind: 'status', status: 500 } }, { fault: { kind: 'status', status: 529 } }],
      }),
    );
    const c = openai(s.v1Url);
    const call = () => c.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }] }).catch((e: unknown) => e);
    const e429 = (await call()) as InstanceType<typeof OpenAI.APIError>;
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429.code).toBe('rate_limit_exceeded');
    expect(e429.headers?.get('retry-after')).toBe('3');
    expect(await call()).toBeInstanceOf(OpenAI.InternalServerError);
    const e529 = (await call()) as InstanceType<typeof OpenAI.APIError>;
    expect(e529.status).toBe(529);
  });

  it('hangs until the client times out', async () => {
    const s = await track(startOpenAIChatServer({ script: [{ fault: { kind: 'hang' } }] }));
    const err = await openai(s.v1Url, { timeout: 300 }).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await waitUntil(() => s.hangingRequests === 0);
  });

  it('sends garbage JSON and truncated or erroring streams', async () => {
    const s = await track(
      startOpenAIChatServer({
        script: [
          { fault: { kind: 'garbage', body: 'not json at all' } },
          { content: 'abcdefghij', chunkSize: 2, fault: { kind: 'truncate', afterEvents: 3 } },
          { content: 'abcdefghij', chunkSize: 2, fault: { kind: 'stream-error', afterEvents: 2, message: 'upstream died' } },
        ],
      }),
    );
    const c = openai(s.v1Url);
    await expect(c.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }] })).rejects.toThrow();

    // A stream cut before [DONE]: the SDK ends quietly, so a caller must notice the missing finish_reason.
    let text = '';
    let finish: string | null = null;
    for await (const ch of await c.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }], stream: true })) {
      text += ch.choices[0]?.delta.content ?? '';
      finish = ch.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('abcd');
    expect(finish).toBeNull();

    const err = await (async () => {
      for await (const _ of await c.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'go' }], stream: true })) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(String(err)).toContain('upstream died');
  });
});

describe('ResponsesServer', () => {
  it('streams the Responses event sequence with a message and a function call', async () => {
    const s = await track(
      startResponsesServer({
        script: [
          {
            output: [
              { type: 'reasoning', summary: 'thinking about it' },
              { type: 'message', text: 'Running the command.' },
              { type: 'function_call', name: 'exec_command', arguments: { cmd: 'ls' }, call_id: 'call_9' },
            ],
            usage: { input_tokens: 900, cached_tokens: 100 },
          },
        ],
      }),
    );
    const stream = await openai(s.v1Url).responses.create({ model: 'gpt-x', instructions: 'be careful', input: [{ role: 'user', content: 'list files' }], stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === 'response.output_text.delta') text += ev.delta;
      if (ev.type === 'response.completed') completed = ev.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    expect(types.filter((t) => t === 'response.output_item.added')).toHaveLength(3);
    expect(types.filter((t) => t === 'response.output_item.done')).toHaveLength(3);
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(text).toBe('Running the command.');
    expect(completed!.status).toBe('completed');
    expect(completed!.usage).toMatchObject({ input_tokens: 900, input_tokens_details: { cached_tokens: 100 } });
    expect(completed!.output[2]).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_9' });
    expect(responsesRequestText(s.responseRequests[0]!.body)).toBe('be careful\nlist files');
  });

  it('answers non-streaming requests and incomplete responses', async () => {
    const s = await track(startResponsesServer({ script: ['plain answer', { output: 'cut', status: 'incomplete' }] }));
    const c = openai(s.v1Url);
    const r = await c.responses.create({ model: 'gpt-x', input: 'hi' });
    expect(r.output_text).toBe('plain answer');
    const types: string[] = [];
    let last: OpenAI.Responses.Response | undefined;
    for await (const ev of await c.responses.create({ model: 'gpt-x', input: 'hi', stream: true })) {
      types.push(ev.type);
      if (ev.type === 'response.incomplete') last = ev.response;
    }
    expect(types[types.length - 1]).toBe('response.incomplete');
    expect(last!.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('fails a stream with response.failed and answers status faults', async () => {
    const s = await track(
      startResponsesServer({ script: [{ output: 'abc', fault: { kind: 'stream-error', afterEvents: 3, message: 'boom' } }, { fault: { kind: 'status', status: 429, retryAfter: 1 } }] }),
    );
    const c = openai(s.v1Url);
    const types: string[] = [];
    let failed: OpenAI.Responses.Response | undefined;
    for await (const ev of await c.responses.create({ model: 'gpt-x', input: 'hi', stream: true })) {
      types.push(ev.type);
      if (ev.type === 'response.failed') failed = ev.response;
    }
    expect(types).toHaveLength(4);
    expect(failed!.error).toMatchObject({ message: 'boom' });
    await expect(c.responses.create({ model: 'gpt-x', input: 'hi', stream: true })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});

/** Polls `cond` every 10 ms for up to 5 s (state reached asynchronously, e.g. a socket close). */
async function waitUntil(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}
