import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { CompactionAbortedError, CompactionConfigError, MissingPackageError, SummarizerError, abortMessage, throwIfAborted } from './errors.js';
import { importPeer } from './peer.js';
import { ExtractiveSummarizer } from './extractive.js';
import { planSummaryRequests, summarizerSystemPrompt, summaryRequestPrompt } from './llm-prompt.js';
import { repairReply, sectionProblem } from './repair.js';
import type { SummarizeInput, SummaryOutput, Summarizer } from './summarizer.js';
import { UNKNOWN_MODEL_WINDOW, knownModelWindow } from './windows.js';

/** Options shared by the LLM summarizers. Times are milliseconds; sizes are tokens. */
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
  /** Overall deadline for one summarize call, retries and chunks included (ms). Default 300000. */
  deadlineMs?: number;
  /** First backoff delay after a 429/5xx/timeout (ms); doubles each retry, capped at 30 s; `retry-after` wins when sent. Default 1000. */
  backoffMs?: number;
  /** Retries of one request after a transient failure (429, 5xx, 529, timeout, reset, truncated stream), within `deadlineMs`. Default 2. */
  requestRetries?: number;
  /**
   * The summarizer model's own context window (tokens): no request is sent whose input plus
   * output limit is above it; a longer span is summarized in chunks and merged. Default: from
   * the model name ({@link MODEL_WINDOWS}), else {@link UNKNOWN_MODEL_WINDOW}.
   */
  window?: number;
  /** `openai` only: the request field for the output limit. Default `max_tokens` (widest support among compatible servers). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/**
 * Tokens of the summarizer's window kept free beside each request: 5% of it plus 64, for
 * the provider's tokenizer counting the same text differently from ours (the meter's o200k)
 * and for message framing.
 */
export function requestMargin(window: number): number {
  return Math.ceil(window * 0.05) + 64;
}

/** Smaller requests tried after "prompt is too long" before giving up. */
export const MAX_TOO_LONG_RETRIES = 3;

/**
 * What a provider says when the request is above the model's window (HTTP 400 or 413):
 * Anthropic `prompt is too long: N tokens > M maximum` and `input length and \`max_tokens\` exceed
 * context limit: N + K > M` (input plus output limit above the window), OpenAI `context_length_exceeded` /
 * `This model's maximum context length is M tokens. However, your messages resulted in N
 * tokens`, and the phrases of OpenAI-compatible servers (vLLM, llama.cpp, OpenRouter).
 */
const TOO_LONG = /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|exceeds? (?:the )?(?:model'?s? )?context (?:window|length)|too many tokens|request_too_large|input is too long|reduce the length of the messages|exceed context limit/i;

/** The request was above the provider's window: never send it again; send a smaller one. */
export class PromptTooLongError extends Error {
  constructor(
    message: string,
    /** Provider tokens the prompt had, and the maximum it allows, when the message says. */
    readonly actual?: number,
    readonly maximum?: number,
  ) {
    super(message);
  }
}

/** `actual`: the provider's count of the request's input tokens; `maximum`: its window (both tokens). */
export function tooLongNumbers(message: string): { actual?: number; maximum?: number } {
  const n = (s: string) => Number(s.replace(/,/g, ''));
  let m = /(\d[\d,]*) tokens? > (\d[\d,]*)/.exec(message);
  if (m) return { actual: n(m[1]!), maximum: n(m[2]!) };
  // Anthropic: "exceed context limit: <input> + <max_tokens> > <window>"
  m = /(\d[\d,]*) \+ (\d[\d,]*) > (\d[\d,]*)/.exec(message);
  if (m) return { actual: n(m[1]!), maximum: n(m[3]!) };
  // Claude Code's -p result: "the request is ~250000 tokens (limit 200000)"
  m = /~?(\d[\d,]*) tokens \(limit (\d[\d,]*)\)/.exec(message);
  if (m) return { actual: n(m[1]!), maximum: n(m[2]!) };
  m = /maximum context length is (\d[\d,]*) tokens[\s\S]*?(?:resulted in|requested) (?:about )?(\d[\d,]*) tokens/i.exec(message);
  if (m) {
    // OpenAI/vLLM "you requested N tokens (X in the messages, Y in the completion)": N counts the output limit
    const input = /\((\d[\d,]*) in the messages/i.exec(message);
    return { actual: n(input ? input[1]! : m[2]!), maximum: n(m[1]!) };
  }
  return {};
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

// The SDKs are optional peer dependencies loaded on first use (importing both costs ~400 ms),
// so the extractive path and hook processes never pay for them, and a library user installs
// only the one they summarize with.
let openaiModule: Promise<typeof import('openai')> | undefined;
let anthropicModule: Promise<typeof import('@anthropic-ai/sdk')> | undefined;
const loadOpenAI = () => (openaiModule ??= importPeer('openai', 'the openai summarizer', () => import('openai')));
const loadAnthropic = () => (anthropicModule ??= importPeer('@anthropic-ai/sdk', 'the anthropic summarizer', () => import('@anthropic-ai/sdk')));

/** The SDK error classes a summarizer classifies failures with. */
interface SdkErrors {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
}

/** The reason the request loop aborts a request whose `requestTimeoutMs` (or the deadline) passed; `ms` is the time it had. */
export class RequestTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** A broken reply worth sending the same request again (truncated stream). */
class TransientReplyError extends Error {}

/** A failure as the request loop sees it: whether to retry, the message, the HTTP status, the wait a `retry-after` asked for. */
export interface Classified {
  retryable: boolean;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… [${s.length - max} chars clipped]`;
}

/** Remove in-band reasoning some OpenAI-compatible servers put in content (`<think>…</think>`). */
export function stripReasoning(text: string): string {
  return text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '').trim();
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
  // The socket closed mid-reply (undici's fetch rejects the body read with TypeError "terminated").
  const code = (err as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (err as { code?: unknown }).code;
  if ((err instanceof TypeError && /terminated|fetch failed|socket/i.test(String(e.message))) || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
    return { retryable: true, message: `${vendor} connection closed mid-reply: ${clip(String(e.message ?? ''), 200)}` };
  }
  if (err instanceof SyntaxError) return { retryable: false, message: `${vendor} endpoint sent an unparseable response: ${clip(err.message, 200)}` };
  return { retryable: false, message: `${vendor} summarizer failed: ${clip(String(e.message ?? err), 200)}` };
}

/** Requests one summarize call made: how many, and the largest (input + output limit, tokens of the engine's meter). */
interface RequestStats {
  requests: number;
  largestRequestTokens: number;
}

/**
 * Shared request loop of the LLM summarizers (the API ones here, the host CLIs in host-cli.ts):
 * the span is cut into requests that fit the model's window ({@link planSummaryRequests}), each
 * answered reply is checked for the checkpoint sections and carried into the next request as the
 * summary to merge; the last reply, when it lacks some sections, is repaired (repair.ts: one
 * follow-up request naming them, then the extractive checkpoint of the span); transient failures
 * are retried (at most `requestRetries` times, within `deadlineMs`); a "prompt is too long"
 * answer is never sent again: the requests are re-planned smaller (at most
 * {@link MAX_TOO_LONG_RETRIES} times), and the window learned stays for later calls.
 */
export abstract class LlmSummarizer implements Summarizer {
  abstract readonly name: string;
  /** The model asked for; undefined when a host CLI uses its own default. */
  readonly model: string | undefined;
  /** The summarizer model's context window (tokens); for a host CLI, what its own system prompt and tools leave of it. */
  readonly window: number;
  /** Whether an empty reply or one without any checkpoint section is worth another engine attempt (not for a host CLI: each run costs a whole process and the user's quota). */
  protected readonly retryBadReplies: boolean = true;
  /** What answers the requests, for messages: `endpoint` (an API), or the host CLI's command. */
  protected get replier(): string {
    return 'endpoint';
  }
  protected readonly opts: Required<Pick<LlmSummarizerOptions, 'stream' | 'requestTimeoutMs' | 'deadlineMs' | 'backoffMs' | 'requestRetries'>>;
  /** Input tokens (of the engine's meter) a request may take; lowered when the provider says "too long". */
  private inputCap: number | undefined;
  /** The window a "too long" answer stated, when below {@link window} (provider tokens). */
  private providerWindow: number | undefined;

  constructor(model: string | undefined, o: LlmSummarizerOptions) {
    this.model = model;
    for (const k of ['requestTimeoutMs', 'deadlineMs', 'backoffMs', 'window'] as const) {
      const v = o[k];
      if (v !== undefined && (!Number.isInteger(v) || v <= 0)) throw new CompactionConfigError((n) => `${n(k)} must be a positive integer, got ${JSON.stringify(v)}`, k);
    }
    if (o.requestRetries !== undefined && (!Number.isInteger(o.requestRetries) || o.requestRetries < 0)) {
      throw new CompactionConfigError((n) => `${n('requestRetries')} must be a non-negative integer, got ${JSON.stringify(o.requestRetries)}`, 'requestRetries');
    }
    this.window = o.window ?? (model ? knownModelWindow(model) : undefined) ?? UNKNOWN_MODEL_WINDOW;
    if (this.window < 1024) throw new CompactionConfigError((n) => `${n('window')} must be at least 1024 tokens, got ${this.window}`, 'window');
    this.opts = {
      stream: o.stream ?? false,
      requestTimeoutMs: o.requestTimeoutMs ?? 120_000,
      deadlineMs: o.deadlineMs ?? 300_000,
      backoffMs: o.backoffMs ?? 1000,
      requestRetries: o.requestRetries ?? 2,
    };
  }

  /**
   * One request. Rejects with a {@link SummarizerError} for a verdict on the reply (returned to
   * the engine as is), a {@link PromptTooLongError} for a request above the window, anything else
   * for {@link classifyFailure} to judge. `signal` fires with a {@link RequestTimeout} reason when
   * the request's time is up.
   */
  protected abstract call(system: string, prompt: string, maxTokens: number, signal: AbortSignal): Promise<SummaryOutput>;
  /** Whether a failure of {@link call} is worth retrying, and its message. */
  protected abstract classifyFailure(err: unknown): Promise<Classified>;

  /**
   * Summarize `input.span` in as many requests as its window needs, merging a prior checkpoint;
   * a last reply lacking some sections is repaired (`repairedSections` says which and how).
   * @throws SummarizerError when a reply is empty or has none of the checkpoint sections
   *   (retryable, except for a host CLI), on a non-retryable answer, after the retries or the
   *   deadline, or when even the smallest request is too long for the provider (not retryable).
   */
  async summarize(input: SummarizeInput): Promise<SummaryOutput> {
    const deadline = Date.now() + this.opts.deadlineMs;
    const meter = input.meter;
    const stats: RequestStats = { requests: 0, largestRequestTokens: 0 };
    // The output limit of each request: the engine's summary budget, at most a quarter of the
    // window (the configured one, or the smaller one a "too long" answer stated).
    const outputLimit = () => Math.max(16, Math.min(input.maxTokens, Math.floor(Math.min(this.window, this.providerWindow ?? Infinity) / 4)));
    let cap = Math.min(this.inputCap ?? Infinity, this.window - outputLimit() - requestMargin(this.window));
    for (let shrink = 0; ; shrink++) {
      const maxTokens = outputLimit();
      const system = summarizerSystemPrompt(maxTokens);
      const framing = meter.countText(system) + 2 * meter.perMessageOverhead;
      const plan = planSummaryRequests(input.span, { meter, promptTokens: cap - framing, summaryTokens: maxTokens });
      try {
        let running = plan.prior;
        let last: SummaryOutput | undefined;
        let prompt = '';
        for (let i = 0; i < plan.chunks.length; i++) {
          prompt = summaryRequestPrompt(running, plan.chunks[i]!, i, plan.chunks.length);
          const size = framing + meter.countText(prompt) + maxTokens;
          if (size > this.window) throw new SummarizerError(`${this.name}: a ${size}-token request would exceed the summarizer window of ${this.window} tokens (not sent)`, false);
          stats.largestRequestTokens = Math.max(stats.largestRequestTokens, size);
          last = await this.request(system, prompt, maxTokens, deadline, input.signal, stats);
          const problem = sectionProblem(last.text);
          if (problem) throw new SummarizerError(`${this.name} reply${plan.chunks.length > 1 ? ` ${i + 1} of ${plan.chunks.length}` : ''}: ${problem}`, this.retryBadReplies);
          running = last.text;
        }
        const fixed = await repairReply(running, {
          prompt,
          maxTokens,
          meter,
          ask: (followUp, limit) => {
            const size = framing + meter.countText(followUp) + limit;
            if (size > this.window - requestMargin(this.window)) {
              return Promise.reject(new SummarizerError(`the ${size}-token follow-up request would exceed the summarizer window of ${this.window} tokens (not sent)`, false));
            }
            stats.largestRequestTokens = Math.max(stats.largestRequestTokens, size);
            return this.request(system, followUp, limit, deadline, input.signal, stats).then((r) => r.text);
          },
          extractive: async (limit) => (await new ExtractiveSummarizer().summarize({ ...input, maxTokens: limit })).text,
        });
        return {
          ...last!,
          text: fixed.text,
          requests: stats.requests,
          largestRequestTokens: stats.largestRequestTokens,
          window: this.window,
          ...(fixed.repaired.length ? { repairedSections: fixed.repaired } : {}),
        };
      } catch (err) {
        if (!(err instanceof PromptTooLongError)) throw err;
        if (shrink >= MAX_TOO_LONG_RETRIES) {
          throw new SummarizerError(`${this.name} endpoint still said the prompt is too long after ${shrink + 1} ever smaller requests (the last at most ${cap} input tokens): ${err.message}`, false, 400);
        }
        // The provider counts more tokens than the meter: scale by what it said, and always go smaller.
        // A window it states below the configured one also lowers the output limit (a 3k summary
        // leaves no room in a local model's 6k window).
        if (err.maximum && err.maximum < Math.min(this.window, this.providerWindow ?? Infinity)) this.providerWindow = err.maximum;
        const sent = cap;
        const byReport = err.actual && err.maximum ? Math.floor(((err.maximum - outputLimit()) * sent) / err.actual * 0.9) : Infinity;
        cap = Math.max(1, Math.min(Math.floor(sent * 0.7), byReport));
        this.inputCap = cap;
      }
    }
  }

  /**
   * One completion of `prompt` under `system` through this summarizer's client and request loop
   * (retries of transient failures, request timeout, `deadlineMs`), for callers with a prompt of
   * their own (the mind's LLM harvest). `maxTokens` is the output limit (tokens). Reasoning is
   * stripped from the reply.
   * @throws SummarizerError on an empty reply, a non-retryable answer, after the retries or the
   *   deadline, or when the provider says the prompt is too long (not retried here).
   */
  async complete(system: string, prompt: string, opts: { maxTokens: number; signal?: AbortSignal }): Promise<SummaryOutput> {
    try {
      return await this.request(system, prompt, opts.maxTokens, Date.now() + this.opts.deadlineMs, opts.signal, { requests: 0, largestRequestTokens: 0 });
    } catch (err) {
      if (err instanceof PromptTooLongError) throw new SummarizerError(`${this.name} endpoint said the prompt is too long: ${err.message}`, false, 400);
      throw err;
    }
  }

  /** One request with its retries (transient failures only, bounded by `requestRetries` and the deadline). */
  private async request(system: string, prompt: string, maxTokens: number, deadline: number, signal: AbortSignal | undefined, stats: RequestStats): Promise<SummaryOutput> {
    let last: Classified | undefined;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signal);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new SummarizerError(`${this.name} summarizer gave up after ${stats.requests} request(s) within its ${this.opts.deadlineMs} ms deadline: ${last?.message ?? 'no attempt finished'}`, false, last?.status);
      }
      const timeout = Math.min(this.opts.requestTimeoutMs, remaining);
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(new RequestTimeout(timeout)), timeout);
      const onAbort = () => ac.abort(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        stats.requests++;
        const out = await this.call(system, prompt, maxTokens, ac.signal);
        const text = stripReasoning(out.text);
        if (!text) throw new SummarizerError(`${this.name} ${this.replier} returned an empty summary`, this.retryBadReplies);
        return { ...out, text };
      } catch (err) {
        if (signal?.aborted) throw new CompactionAbortedError(abortMessage(signal));
        // A verdict on the reply itself (output limit hit, malformed or empty answer): the engine decides.
        if (err instanceof SummarizerError || err instanceof MissingPackageError || err instanceof PromptTooLongError) throw err;
        if (ac.signal.aborted && ac.signal.reason instanceof RequestTimeout) {
          last = { retryable: true, message: `${this.name} endpoint did not answer within ${timeout} ms (timed out)` };
        } else last = await this.classifyFailure(err);
        if ((last.status === 400 || last.status === 413) && TOO_LONG.test(last.message)) {
          const { actual, maximum } = tooLongNumbers(last.message);
          throw new PromptTooLongError(last.message, actual, maximum);
        }
        if (!last.retryable) throw new SummarizerError(last.message, false, last.status);
        const wait = Math.min(last.retryAfterMs ?? this.opts.backoffMs * 2 ** (attempt - 1), 30_000, Math.max(0, deadline - Date.now()));
        if (deadline - Date.now() - wait <= 0) {
          throw new SummarizerError(`${this.name} summarizer gave up after ${stats.requests} request(s) within its ${this.opts.deadlineMs} ms deadline: ${last.message}`, false, last.status);
        }
        if (attempt > this.opts.requestRetries) {
          throw new SummarizerError(`${this.name} summarizer gave up after ${attempt} tries of one request (requestRetries ${this.opts.requestRetries}): ${last.message}`, false, last.status);
        }
        await sleep(wait, signal);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }
}

function keyFrom(o: LlmSummarizerOptions, defEnv: string, summarizer: string): string {
  if (o.apiKey) return o.apiKey;
  const env = o.apiKeyEnv ?? defEnv;
  const v = process.env[env];
  if (!v) throw new CompactionConfigError((n) => `the ${summarizer} summarizer needs an API key: set ${env}${o.apiKeyEnv ? '' : ` or name another variable with ${n('apiKeyEnv')}`}`, 'apiKeyEnv');
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
  declare readonly model: string;
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

  protected async classifyFailure(err: unknown): Promise<Classified> {
    return classify(err, this.name, await loadOpenAI());
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
  declare readonly model: string;
  private clientP: Promise<Anthropic> | undefined;
  private readonly clientOpts: { apiKey: string; baseURL?: string };

  constructor(o: LlmSummarizerOptions = {}) {
    super(o.model ?? 'claude-haiku-4-5', o);
    this.clientOpts = { apiKey: keyFrom(o, 'ANTHROPIC_API_KEY', 'anthropic'), baseURL: o.baseURL };
  }

  private get client(): Promise<Anthropic> {
    return (this.clientP ??= loadAnthropic().then((m) => new m.default({ ...this.clientOpts, maxRetries: 0, timeout: this.opts.requestTimeoutMs })));
  }

  protected async classifyFailure(err: unknown): Promise<Classified> {
    return classify(err, this.name, await loadAnthropic());
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

