import { MemorySessionLog, blocksText, type ContentBlock, type NewEvent, type SurfaceNode } from '@hive-mind/session';
import { BasicCompactionEngine, compactionReport, unframeCheckpoint, type CompactionConfig, type CompactionReport, type CompactionResult } from '@hive-mind/compaction';
import type { MessageCodec } from './codec.js';
import { AdapterInputError } from './errors.js';

/** Conversations one {@link MessageCompactor} remembers (least recently used goes first). */
export const DEFAULT_MAX_CONVERSATIONS = 16;
/** Configurations {@link compactMessages} keeps a compactor for (least recently used goes first). */
const MAX_SHARED_COMPACTORS = 32;
/** Engines one compactor keeps for different per-call overheads (the configured one always stays). */
const MAX_ENGINES = 8;

/** Options of {@link compactMessages}: the engine's config (see `@hive-mind/compaction`) plus the codec. */
export interface CompactMessagesOptions<M> extends CompactionConfig {
  /** How to read and write the framework's messages (each adapter subpath exports one). */
  codec: MessageCodec<M>;
  /** Cancels a running compaction (the call rejects with an error named `AbortError`; the messages are untouched). */
  signal?: AbortSignal;
}

/** What one call did. Tokens are meter tokens (o200k_base by default). */
export interface CompactMessagesReport {
  /** True when a compaction landed during this call. */
  compacted: boolean;
  /** Tokens of the returned messages as the engine counts them. */
  tokens: number;
  /** What the messages may take: the budget less `overheadTokens` (the engine's `surfaceBudget()`). */
  surfaceBudget: number;
  /** The configured budget (tokens). */
  budget: number;
  /** Input messages matched to the cache (not read again). */
  cachedMessages: number;
  /** Input messages read this call. */
  newMessages: number;
  /** When this call compacted: the report `hive-mind compact --json` prints (`format` is the codec name). */
  compaction?: CompactionReport;
  /** The engine's result for this call (`noopReason` says why nothing happened, `backoff` when waiting after a failure). */
  result: CompactionResult;
}

/** The messages to send (under the budget unless `report.result` says why not) and the report. */
export interface CompactMessagesResult<M> {
  messages: M[];
  report: CompactMessagesReport;
}

/**
 * One conversation as the compactor knows it: the session log its messages were read into,
 * the input messages in log order, and the current output (one message per surface node).
 */
class Conversation<M> {
  readonly log = new MemorySessionLog('adapter');
  /** Every input message read into the log, in order (index = `meta.index` of its event). */
  readonly inputs: M[] = [];
  /** Seq of the event read from `inputs[i]`. */
  readonly seqs: number[] = [];
  /** The output: one message per surface node, in surface order. */
  rendered: M[] = [];
  renderedGeneration = 0;
  /** Tool call id as the framework gave it -> the id on the log (renamed when a model reuses an id). */
  readonly callIds = new Map<string, string>();
  readonly logIds = new Set<string>();
}

/**
 * Compacts a framework's message array before each model call. It remembers conversations
 * by their message prefix: a call whose messages extend what an earlier call was given (or
 * what it returned) reads only the new messages, so a check under the budget costs the
 * prefix comparison (by identity, then by content for objects that differ) plus O(new
 * messages) of conversion and token counting. The engine's state (backoff after a failure,
 * cached counts) lives with the conversation.
 *
 * Throws {@link AdapterInputError} for a message the codec cannot read or a tool result whose
 * call is not earlier in the messages (nothing is appended then), `BudgetTooSmallError` /
 * `CompactionFailedError` from the engine, and an `AbortError` when `signal` fires.
 */
export class MessageCompactor<M> {
  /** The engine of the configuration as given (`overheadTokens` of a call adds to its own). */
  readonly engine: BasicCompactionEngine;
  private readonly engines = new Map<number, BasicCompactionEngine>();
  private readonly conversations: Array<Conversation<M>> = [];
  private readonly fingerprints = new WeakMap<object, string>();
  private readonly arrayName: string;

  /** Throws `CompactionConfigError` (naming the key) for a bad `config`. */
  constructor(
    readonly codec: MessageCodec<M>,
    private readonly config: CompactionConfig,
    private readonly maxConversations = DEFAULT_MAX_CONVERSATIONS,
  ) {
    this.engine = new BasicCompactionEngine(config);
    this.engines.set(0, this.engine);
    this.arrayName = codec.arrayName ?? 'messages';
  }

  /**
   * The engine for `extra` tokens of overhead beyond the configured `overheadTokens` (what the
   * model receives beside the messages on this call: a system prompt or tools given apart).
   * One per distinct value, sharing the meter; a new one counts a conversation once, then O(new).
   */
  engineFor(extra: number): BasicCompactionEngine {
    let e = this.engines.get(extra);
    if (!e) {
      e = new BasicCompactionEngine({ ...this.config, meter: this.engine.meter, overheadTokens: (this.config.overheadTokens ?? 0) + extra });
      this.engines.set(extra, e);
      if (this.engines.size > MAX_ENGINES) for (const k of this.engines.keys()) if (k !== 0 && k !== extra) { this.engines.delete(k); break; }
    }
    return e;
  }

  /**
   * Compact `messages` to the budget. `overheadTokens` (tokens, default 0) adds to the
   * configured overhead for this call.
   */
  async compact(messages: readonly M[], opts: { signal?: AbortSignal; overheadTokens?: number } = {}): Promise<CompactMessagesResult<M>> {
    if (!Array.isArray(messages)) throw new AdapterInputError(this.codec.name, this.arrayName, 'is not an array');
    const engine = this.engineFor(opts.overheadTokens ?? 0);
    const { conv, from } = this.find(messages);
    const fresh = messages.slice(from);
    this.append(conv, fresh, from);
    const result = await engine.compactIfNeeded(conv.log, opts.signal ? { signal: opts.signal } : {});
    const surface = conv.log.surface();
    this.render(conv, surface);
    const report: CompactMessagesReport = {
      compacted: result.compacted,
      tokens: engine.surfaceTokens(conv.log),
      surfaceBudget: engine.surfaceBudget(),
      budget: engine.config.budget,
      cachedMessages: from,
      newMessages: fresh.length,
      result,
    };
    if (result.compacted) report.compaction = compactionReport(this.codec.name, result, surface, 0);
    return { messages: conv.rendered.slice(), report };
  }

  /**
   * Summarize all of `messages` into one checkpoint (for a framework that compacts on its own
   * and asks for the summary: pi's `session_before_compact`). Nothing is cached. Returns the
   * summary body (the checkpoint without its `<compacted-summary>` frame), the framed text and
   * the engine's result. Throws what {@link compact} throws, and `CompactionFailedError` when no
   * checkpoint could land.
   */
  async summarize(messages: readonly M[], opts: { signal?: AbortSignal } = {}): Promise<{ summary: string; text: string; result: CompactionResult }> {
    const conv = new Conversation<M>();
    this.append(conv, messages, 0);
    const nodes = conv.log.surface();
    if (!nodes.length) throw new AdapterInputError(this.codec.name, this.arrayName, 'is empty: nothing to summarize');
    const result = await this.engine.compactRegion(conv.log, nodes[0]!.seq, nodes[nodes.length - 1]!.seq, opts.signal ? { signal: opts.signal } : {});
    const text = blocksText(result.summary);
    return { summary: unframeCheckpoint(text) ?? text, text, result };
  }

  // --- the prefix cache ----------------------------------------------------------

  /** The conversation `messages` extends (its inputs or its last output), or a new one. */
  private find(messages: readonly M[]): { conv: Conversation<M>; from: number } {
    for (let i = 0; i < this.conversations.length; i++) {
      const conv = this.conversations[i]!;
      const from = this.extends(messages, conv.inputs) ? conv.inputs.length : this.extends(messages, conv.rendered) ? conv.rendered.length : -1;
      if (from < 0) continue;
      if (i > 0) this.conversations.unshift(...this.conversations.splice(i, 1));
      return { conv, from };
    }
    const conv = new Conversation<M>();
    this.conversations.unshift(conv);
    if (this.conversations.length > this.maxConversations) this.conversations.pop();
    return { conv, from: 0 };
  }

  private extends(messages: readonly M[], prefix: readonly M[]): boolean {
    const n = prefix.length;
    if (n === 0 || messages.length < n) return false;
    if (!this.same(messages[n - 1]!, prefix[n - 1]!)) return false;
    for (let i = 0; i < n - 1; i++) if (!this.same(messages[i]!, prefix[i]!)) return false;
    return true;
  }

  private same(a: M, b: M): boolean {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    return this.fingerprint(a) === this.fingerprint(b);
  }

  private fingerprint(m: object): string {
    let f = this.fingerprints.get(m);
    if (f === undefined) {
      f = JSON.stringify(m) ?? '';
      this.fingerprints.set(m, f);
    }
    return f;
  }

  // --- reading new messages --------------------------------------------------------

  /**
   * Read `fresh` (the caller's array from index `from`, which names the field in errors) into the
   * log in one batch; nothing is appended when one fails. Each event's `meta.index` is the
   * message's place in `conv.inputs`, which differs from `from + k` when the caller's array
   * extends the compactor's own output (shorter than the inputs once a compaction landed).
   */
  private append(conv: Conversation<M>, fresh: readonly M[], from: number): void {
    if (!fresh.length) return;
    const renames = new Map<string, string>();
    const added = new Set<string>();
    const logId = (id: string) => renames.get(id) ?? conv.callIds.get(id);
    const base = conv.inputs.length;
    const events: NewEvent[] = fresh.map((m, k) => {
      const index = base + k;
      const field = `${this.arrayName}[${from + k}]`;
      const { type, content, kind } = this.codec.read(m, field);
      const blocks = content.map((b, j): ContentBlock => {
        if (b.type === 'tool-call') {
          let id = b.id;
          for (let n = 2; conv.logIds.has(id) || added.has(id); n++) id = `${b.id}#${n}`;
          added.add(id);
          renames.set(b.id, id);
          return id === b.id ? b : { ...b, id };
        }
        if (b.type === 'tool-result') {
          const id = logId(b.callId);
          if (id === undefined) throw new AdapterInputError(this.codec.name, `${field} (block ${j})`, `tool result for call ${JSON.stringify(b.callId)} has no tool call earlier in the messages`);
          return id === b.callId ? b : { ...b, callId: id };
        }
        return b;
      });
      return { type, surfaceOp: 'append', content: blocks, meta: { index }, ...(kind ? { kind } : {}) } as NewEvent;
    });
    const stored = conv.log.append(events);
    for (const [orig, id] of renames) conv.callIds.set(orig, id);
    for (const id of added) conv.logIds.add(id);
    conv.inputs.push(...fresh);
    conv.seqs.push(...stored.map((e) => e.seq));
  }

  // --- writing the output ------------------------------------------------------------

  /** Bring `conv.rendered` in line with the surface: push new nodes, or re-render after a replace. */
  private render(conv: Conversation<M>, surface: readonly SurfaceNode[]): void {
    if (conv.renderedGeneration !== conv.log.generation || conv.rendered.length > surface.length) {
      conv.rendered = [];
      conv.renderedGeneration = conv.log.generation;
    }
    for (let i = conv.rendered.length; i < surface.length; i++) conv.rendered.push(this.message(conv, surface[i]!));
  }

  private message(conv: Conversation<M>, node: SurfaceNode): M {
    const index = node.meta?.index;
    const original = typeof index === 'number' ? conv.inputs[index] : undefined;
    if (original !== undefined && conv.seqs[index as number] === node.seq) return original;
    if (node.kind === 'checkpoint') return this.codec.checkpoint(blocksText(node.content));
    if (original === undefined) throw new Error(`${this.codec.name}: surface node ${node.seq} has no input message (compactor bug)`);
    return this.codec.rewrite(original, node.content);
  }
}

const shared = new Map<string, MessageCompactor<unknown>>();
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** A key equal for equal configurations: primitives by value, objects (codec, summarizer, meter) by identity. */
function configKey(options: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(options).sort()) {
    if (key === 'signal') continue;
    const v = options[key];
    if (typeof v === 'object' && v !== null) {
      let id = objectIds.get(v);
      if (id === undefined) objectIds.set(v, (id = nextObjectId++));
      parts.push(`${key}=#${id}`);
    } else if (typeof v === 'function') {
      parts.push(`${key}=fn`);
    } else parts.push(`${key}=${JSON.stringify(v)}`);
  }
  return parts.join(';');
}

/**
 * Compact a framework's messages to fit the budget: the stateless call. Give the whole
 * message array before every model call; it returns the messages to send (leading system
 * messages, a checkpoint in place of the oldest span, the recent tail as the same objects)
 * and the report. Calls with the same configuration share a {@link MessageCompactor}, so a
 * call whose messages extend an earlier call's costs O(new messages) (see the class).
 *
 * `options` are the engine's config keys (`contextWindow` or `budget`, `overheadTokens`
 * for tool definitions and a system prompt the messages do not hold, `strategy`,
 * `summarizer`...; validated, unknown keys rejected) plus `codec` and `signal`.
 */
export async function compactMessages<M>(messages: readonly M[], options: CompactMessagesOptions<M>): Promise<CompactMessagesResult<M>> {
  const { codec, signal, ...config } = options;
  if (!codec || typeof codec.read !== 'function') throw new TypeError('compactMessages: options.codec is required (each adapter subpath exports one, e.g. aiSdkCodec)');
  const key = configKey({ codec, ...config });
  let c = shared.get(key) as MessageCompactor<M> | undefined;
  if (c) shared.delete(key);
  else c = new MessageCompactor(codec, config);
  shared.set(key, c as MessageCompactor<unknown>);
  if (shared.size > MAX_SHARED_COMPACTORS) shared.delete(shared.keys().next().value!);
  return c.compact(messages, signal ? { signal } : {});
}
