import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { blockText, type SurfaceNode } from '@hive-mind/session';
import { analyzeSpan } from './analyze.js';
import { CompactionAbortedError, CompactionConfigError, SummarizerError, abortMessage, throwIfAborted } from './errors.js';
import { SECTIONS, type SummarizeInput, type SummaryOutput, type Summarizer } from './summarizer.js';

/** Options shared by the LLM summarizers. Times are milliseconds; sizes are characters unless named tokens. */
export interface LlmSummarizerOptions {
  /** Model name. Default `gpt-4o-mini` (openai) / `claude-haiku-4-5` (anthropic). */
  model?: string;
  /** API base URL (any OpenAI-compatible server for `openai`). Default: the SDK's (`OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL` env or the vendor URL). */
  baseURL?: string;
  /** API key. Default: the environment variable named by `apiKeyEnv`. */
  apiKey?: string;
  /** Environment variable holding the key. Default `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`. */
  apiKeyEnv?: string;
  /** Stream the reply (SSE). Default false. */
  stream?: boolean;
  /** Timeout of one HTTP request, including a hang (ms). Default 120000. */
  requestTimeoutMs?: number;
  /** Overall deadline for one summarize call, retries included (ms). Default 300000. */
  deadlineMs?: number;
  /** First backoff delay after a 429/5xx/timeout (ms); doubles each retry, capped at 30 s; `retry-after` wins when sent. Default 1000. */
  backoffMs?: number;
  /** Upper bound of the transcript sent to the model (characters). Default 400000. */
  maxInputChars?: number;
  /** `openai` only: the request field for the output limit. Default `max_tokens` (widest support among compatible servers). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

const SYSTEM_PROMPT = (maxTokens: number) =>
  [
    'You write the checkpoint summary of an earlier part of a coding-agent conversation. The agent will continue the work from your summary alone, so keep every fact it needs and nothing else.',
    `Write markdown with exactly these sections, in this order, each as a "## " heading: ${SECTIONS.join('; ')}.`,
    'Rules: quote the user\'s instructions and corrections verbatim in "User instructions and corrections"; give exact file paths, exact commands with their outcome, and exact error messages; "Current work" says precisely what was being done last; "Next step" is the single next action, in line with the latest user request.',
    'If a previous summary is given, merge its facts into your sections (update what changed, keep what still holds); do not copy it as a block and do not nest it.',
    `Output only the summary, no preamble. Stay well under ${maxTokens} tokens.`,
  ].join('\n');

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… [${s.length - max} chars clipped]`;
}

function renderNode(n: SurfaceNode, resultChars: number): string {
  const role = n.type === 'user/message' ? 'user' : n.type === 'assistant/message' ? 'assistant' : n.type === 'tool/result' ? 'tool' : 'system';
  const parts: string[] = [];
  for (const b of n.content) {
    if (b.type === 'reasoning') continue; // never summarize hidden reasoning
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'tool-call') parts.push(`[tool call ${b.name} id=${b.id}] ${clip(typeof b.input === 'string' ? b.input : JSON.stringify(b.input), 800)}`);
    else if (b.type === 'tool-result') parts.push(`[tool result for ${b.callId}${b.isError ? ', error' : ''}] ${clip(blockText(b), resultChars)}`);
    else parts.push(blockText(b));
  }
  return `### ${role}\n${parts.join('\n')}`;
}

/**
 * The user message sent to the model: prior summaries (to merge) then the span as a
 * plain transcript (reasoning left out, tool results clipped so the whole stays
 * under `maxChars`; when even that is too long, the middle of the span is elided).
 */
export function buildSummaryPrompt(span: readonly SurfaceNode[], maxChars: number): string {
  const prior = analyzeSpan(span).priorBodies;
  const nodes = span.filter((n) => n.kind !== 'checkpoint');
  let body = '';
  for (const rc of [2000, 600, 150]) {
    body = nodes.map((n) => renderNode(n, rc)).join('\n\n');
    if (body.length <= maxChars) break;
  }
  if (body.length > maxChars) {
    const half = Math.floor(maxChars / 2);
    body = `${body.slice(0, half)}\n\n[… ${body.length - 2 * half} chars of the middle of the conversation elided …]\n\n${body.slice(-half)}`;
  }
  const pre = prior.length ? `<previous-summary>\n${prior.join('\n\n')}\n</previous-summary>\n\n` : '';
  return `${pre}<conversation>\n${body}\n</conversation>\n\nWrite the checkpoint summary now.`;
}

/** Remove in-band reasoning some OpenAI-compatible servers put in content (`<think>…</think>`). */
export function stripReasoning(text: string): string {
  return text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '').trim();
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new CompactionAbortedError(abortMessage(signal)));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new CompactionAbortedError(abortMessage(signal!)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

// The SDKs are loaded on first use (importing both costs ~400 ms), so the extractive
// path and hook processes never pay for them.
let openaiModule: Promise<typeof import('openai')> | undefined;
let anthropicModule: Promise<typeof import('@anthropic-ai/sdk')> | undefined;
const loadOpenAI = () => (openaiModule ??= import('openai'));
const loadAnthropic = () => (anthropicModule ??= import('@anthropic-ai/sdk'));

/** The SDK error classes a summarizer classifies failures with. */
interface SdkErrors {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
}

class RequestTimeout extends Error {}

/** A broken reply worth sending the same request again (truncated stream, empty text). */
class TransientReplyError extends Error {}

interface Classified {
  retryable: boolean;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

function retryAfter(headers: unknown): number | undefined {
  const h = headers as { get?: (k: string) => string | null } | Record<string, string> | undefined;
  const get = (k: string) => (h && typeof (h as { get?: unknown }).get === 'function' ? (h as { get: (k: string) => string | null }).get(k) : (h as Record<string, string> | undefined)?.[k]);
  const ms = Number(get('retry-after-ms'));
  if (ms > 0) return ms;
  const s = Number(get('retry-after'));
  if (s > 0) return s * 1000;
  return undefined;
}

function classify(err: unknown, vendor: string, sdk: SdkErrors): Classified {
  if (err instanceof TransientReplyError) return { retryable: true, message: err.message };
  const e = err as { status?: unknown; message?: string; name?: string; headers?: unknown };
  const isApi = err instanceof sdk.APIError;
  if (isApi && typeof e.status === 'number') {
    const s = e.status;
    const retryable = s === 408 || s === 409 || s === 429 || s >= 500;
    return { retryable, status: s, message: `${vendor} endpoint answered HTTP ${s}: ${clip(String(e.message ?? ''), 200)}`, retryAfterMs: retryAfter(e.headers) };
  }
  if (err instanceof sdk.APIConnectionError) {
    return { retryable: true, message: `${vendor} endpoint connection failed: ${clip(String(e.message ?? ''), 200)}` };
  }
  if (isApi) return { retryable: true, message: `${vendor} stream failed: ${clip(String(e.message ?? ''), 200)}` };
  if (err instanceof SyntaxError) return { retryable: false, message: `${vendor} endpoint sent an unparseable response: ${clip(err.message, 200)}` };
  return { retryable: false, message: `${vendor} summarizer failed: ${clip(String(e.message ?? err), 200)}` };
}

/** Shared retry/timeout loop of the LLM summarizers. */
abstract class LlmSummarizer implements Summarizer {
  abstract readonly name: string;
  readonly model: string;
  protected readonly opts: Required<Pick<LlmSummarizerOptions, 'stream' | 'requestTimeoutMs' | 'deadlineMs' | 'backoffMs' | 'maxInputChars'>>;

  constructor(model: string, o: LlmSummarizerOptions) {
    this.model = model;
    for (const k of ['requestTimeoutMs', 'deadlineMs', 'backoffMs', 'maxInputChars'] as const) {
      const v = o[k];
      if (v !== undefined && (!Number.isInteger(v) || v <= 0)) throw new CompactionConfigError(`${k} must be a positive integer, got ${JSON.stringify(v)}`, k);
    }
    this.opts = {
      stream: o.stream ?? false,
      requestTimeoutMs: o.requestTimeoutMs ?? 120_000,
      deadlineMs: o.deadlineMs ?? 300_000,
      backoffMs: o.backoffMs ?? 1000,
      maxInputChars: o.maxInputChars ?? 400_000,
    };
  }

  protected abstract call(system: string, prompt: string, maxTokens: number, signal: AbortSignal): Promise<SummaryOutput>;
  /** The vendor SDK's error classes (loads the SDK). */
  protected abstract sdkErrors(): Promise<SdkErrors>;

  async summarize(input: SummarizeInput): Promise<SummaryOutput> {
    const prompt = buildSummaryPrompt(input.span, this.opts.maxInputChars);
    const system = SYSTEM_PROMPT(input.maxTokens);
    const deadline = Date.now() + this.opts.deadlineMs;
    let last: Classified | undefined;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(input.signal);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new SummarizerError(`${this.name} summarizer gave up after ${attempt - 1} attempt(s) within its ${this.opts.deadlineMs} ms deadline: ${last?.message ?? 'no attempt finished'}`, false, last?.status);
      }
      const timeout = Math.min(this.opts.requestTimeoutMs, remaining);
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(new RequestTimeout()), timeout);
      const onAbort = () => ac.abort(input.signal!.reason);
      input.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const out = await this.call(system, prompt, input.maxTokens, ac.signal);
        const text = stripReasoning(out.text);
        if (!text) throw new TransientReplyError(`${this.name} endpoint returned an empty summary`);
        return { ...out, text };
      } catch (err) {
        if (input.signal?.aborted) throw new CompactionAbortedError(abortMessage(input.signal));
        // A verdict on the reply itself (output limit hit, malformed answer): sending the same request again would not help.
        if (err instanceof SummarizerError) throw err;
        if (ac.signal.aborted && ac.signal.reason instanceof RequestTimeout) {
          last = { retryable: true, message: `${this.name} endpoint did not answer within ${timeout} ms (timed out)` };
        } else last = classify(err, this.name, await this.sdkErrors());
        if (!last.retryable) throw new SummarizerError(last.message, false, last.status);
        const wait = Math.min(last.retryAfterMs ?? this.opts.backoffMs * 2 ** (attempt - 1), 30_000, Math.max(0, deadline - Date.now()));
        if (deadline - Date.now() - wait <= 0) {
          throw new SummarizerError(`${this.name} summarizer gave up after ${attempt} attempt(s) within its ${this.opts.deadlineMs} ms deadline: ${last.message}`, false, last.status);
        }
        await sleep(wait, input.signal);
      } finally {
        clearTimeout(timer);
        input.signal?.removeEventListener('abort', onAbort);
      }
    }
  }
}

function keyFrom(o: LlmSummarizerOptions, defEnv: string, summarizer: string): string {
  if (o.apiKey) return o.apiKey;
  const env = o.apiKeyEnv ?? defEnv;
  const v = process.env[env];
  if (!v) throw new CompactionConfigError(`the ${summarizer} summarizer needs an API key: set ${env}${o.apiKeyEnv ? '' : ' or name another variable with apiKeyEnv (--api-key-env)'}`, 'apiKeyEnv');
  return v;
}

/**
 * Summarizer over any OpenAI-compatible Chat Completions endpoint (official `openai` SDK).
 * Reasoning (`reasoning_content`, `<think>` blocks) is stripped; `finish_reason: length`
 * is a failure; 429/5xx/timeouts are retried with backoff within `deadlineMs`.
 * @throws CompactionConfigError when no API key is found.
 */
export class OpenAISummarizer extends LlmSummarizer {
  readonly name = 'openai';
  private clientP: Promise<OpenAI> | undefined;
  private readonly clientOpts: { apiKey: string; baseURL?: string };
  private readonly field: 'max_tokens' | 'max_completion_tokens';

  constructor(o: LlmSummarizerOptions = {}) {
    super(o.model ?? 'gpt-4o-mini', o);
    this.clientOpts = { apiKey: keyFrom(o, 'OPENAI_API_KEY', 'openai'), baseURL: o.baseURL };
    this.field = o.maxTokensField ?? 'max_tokens';
  }

  private get client(): Promise<OpenAI> {
    return (this.clientP ??= loadOpenAI().then((m) => new m.default({ ...this.clientOpts, maxRetries: 0, timeout: this.opts.requestTimeoutMs })));
  }

  protected async sdkErrors(): Promise<SdkErrors> {
    return loadOpenAI();
  }

  protected async call(system: string, prompt: string, maxTokens: number, signal: AbortSignal): Promise<SummaryOutput> {
    const client = await this.client;
    const base = {
      model: this.model,
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: prompt },
      ],
      [this.field]: maxTokens,
    };
    if (!this.opts.stream) {
      const r = (await client.chat.completions.create({ ...base, stream: false } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { signal })) as unknown;
      const choice = (r as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: string }> })?.choices?.[0];
      if (!choice || typeof choice !== 'object') throw new SummarizerError('openai endpoint sent a response without choices', false);
      if (choice.finish_reason === 'length') throw new SummarizerError(`openai summary hit the ${maxTokens}-token output limit (finish_reason length)`, true);
      const content = choice.message?.content;
      if (typeof content !== 'string') throw new SummarizerError('openai endpoint sent a choice without text content', false);
      const u = (r as { usage?: { prompt_tokens?: number; completion_tokens?: number }; model?: string }).usage;
      return { text: content, model: (r as { model?: string }).model ?? this.model, usage: u ? { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens } : undefined };
    }
    const stream = await client.chat.completions.create({ ...base, stream: true, stream_options: { include_usage: true } } as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal });
    let text = '';
    let finish: string | null | undefined;
    let model: string | undefined;
    let usage: SummaryOutput['usage'];
    for await (const chunk of stream) {
      model ??= chunk.model;
      const c = chunk.choices?.[0];
      if (c?.delta?.content) text += c.delta.content; // reasoning_content deltas are ignored
      if (c?.finish_reason) finish = c.finish_reason;
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    }
    if (finish === 'length') throw new SummarizerError(`openai summary hit the ${maxTokens}-token output limit (finish_reason length)`, true);
    if (!finish) throw new TransientReplyError('openai stream ended before a finish_reason (truncated stream)');
    return { text, model: model ?? this.model, usage };
  }
}

/**
 * Summarizer over the Anthropic Messages API (official `@anthropic-ai/sdk`). Only text
 * blocks land (thinking is stripped); `stop_reason: max_tokens` is a failure; 429/5xx/529
 * and timeouts are retried with backoff within `deadlineMs`.
 * @throws CompactionConfigError when no API key is found.
 */
export class AnthropicSummarizer extends LlmSummarizer {
  readonly name = 'anthropic';
  private clientP: Promise<Anthropic> | undefined;
  private readonly clientOpts: { apiKey: string; baseURL?: string };

  constructor(o: LlmSummarizerOptions = {}) {
    super(o.model ?? 'claude-haiku-4-5', o);
    this.clientOpts = { apiKey: keyFrom(o, 'ANTHROPIC_API_KEY', 'anthropic'), baseURL: o.baseURL };
  }

  private get client(): Promise<Anthropic> {
    return (this.clientP ??= loadAnthropic().then((m) => new m.default({ ...this.clientOpts, maxRetries: 0, timeout: this.opts.requestTimeoutMs })));
  }

  protected async sdkErrors(): Promise<SdkErrors> {
    return loadAnthropic();
  }

  protected async call(system: string, prompt: string, maxTokens: number, signal: AbortSignal): Promise<SummaryOutput> {
    const client = await this.client;
    const params = { model: this.model, max_tokens: maxTokens, system, messages: [{ role: 'user' as const, content: prompt }] };
    if (!this.opts.stream) {
      const r = (await client.messages.create({ ...params, stream: false }, { signal })) as unknown as {
        content?: Array<{ type: string; text?: string }>;
        stop_reason?: string;
        model?: string;
        usage?: { input_tokens?: number; output_tokens?: number };
      };
      if (!r || !Array.isArray(r.content)) throw new SummarizerError('anthropic endpoint sent a response without content', false);
      if (r.stop_reason === 'max_tokens') throw new SummarizerError(`anthropic summary hit the ${maxTokens}-token output limit (stop_reason max_tokens)`, true);
      const text = r.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
      return { text, model: r.model ?? this.model, usage: r.usage ? { inputTokens: r.usage.input_tokens, outputTokens: r.usage.output_tokens } : undefined };
    }
    const stream = await client.messages.create({ ...params, stream: true }, { signal });
    let text = '';
    let stop: string | null | undefined;
    let model: string | undefined;
    let done = false;
    const usage: NonNullable<SummaryOutput['usage']> = {};
    for await (const ev of stream) {
      if (ev.type === 'message_start') {
        model = ev.message.model;
        usage.inputTokens = ev.message.usage?.input_tokens;
      } else if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
      else if (ev.type === 'message_delta') {
        stop = ev.delta.stop_reason;
        usage.outputTokens = ev.usage?.output_tokens;
      } else if (ev.type === 'message_stop') done = true;
    }
    if (stop === 'max_tokens') throw new SummarizerError(`anthropic summary hit the ${maxTokens}-token output limit (stop_reason max_tokens)`, true);
    if (!done) throw new TransientReplyError('anthropic stream ended before message_stop (truncated stream)');
    return { text, model: model ?? this.model, usage };
  }
}

/** Summarizer names the CLI accepts. */
export type SummarizerName = 'extractive' | 'openai' | 'anthropic';
