import type { SessionEvent, ContentBlock } from '@hive-mind/session';
import type { FrameInput } from './frame.js';

/** What {@link harvestEvents} kept, by kind (`error`: tool errors seen; they are kept only with the fix that resolved them). */
export interface HarvestCounts {
  instruction: number;
  decision: number;
  error: number;
  fix: number;
  outcome: number;
  environment: number;
  file: number;
}

/** Frames harvested from a transcript, ready for `Mind.saveMany`. */
export interface Harvest {
  frames: FrameInput[];
  counts: HarvestCounts;
}

/** Decision phrasing: a commitment to an approach ("I'll use", "we decided to", "switched to", "the root cause was"). */
const DECISION =
  /\b(?:I(?:'ll| will) (?:use|go with|switch to|keep|replace)|we(?:'ll| will| should) (?:use|go with|switch to|keep)|(?:decided|chose|opted) (?:to|for|on)|let's (?:use|go with|switch to|keep)|switched (?:to|from)|the (?:fix|root cause|solution) (?:is|was))\b/i;
/** Guesses and narration that look like decisions but are not ("I bet...", "let me...", "maybe..."). */
const NOT_DECISION = /^(?:I bet|let me|let's see|let's check|maybe|perhaps|probably|I think|I guess|I wonder|it might|it seems|seems|possibly|if )\b/i;
/**
 * What makes a user message a lasting instruction rather than a one-off request: rules and
 * preferences (always, never, don't, must, make sure, prefer, from now on, remember, avoid,
 * "use X ... not/instead Y") and corrections ("no, ...", "that's wrong", "stop ...").
 */
const LASTING =
  /\b(?:always|never|don'?t|do not|doesn'?t need|must(?:n'?t| not)?|make sure|prefer(?:s|red)?|from now on|remember|avoid|no more|should(?:n'?t| not)|stop \w+ing|use\b[^.?!\n]{0,60}\b(?:instead|not|no|rather|over|everywhere|only))\b/i;
/**
 * The same in other languages (German, French, Spanish, Italian, Portuguese, Dutch; Japanese,
 * Chinese, Korean): always/never/must/do not/remember/prefer and their usual imperative forms.
 */
const LASTING_INTL = new RegExp(
  [
    '\\b(?:immer|niemals|nie|nicht mehr|bitte kein|merk dir|denk daran|bevorzuge|muss|müssen|ab jetzt|künftig)\\b',
    '\\b(?:toujours|jamais|ne (?:\\p{L}+ )?pas|souviens-toi|retiens|il faut|je préfère|désormais)\\b',
    '\\b(?:siempre|nunca|jamás|recuerda|prefiero|hay que|no (?:uses|hagas|pongas)|a partir de ahora)\\b',
    '\\b(?:sempre|mai|ricorda|preferisco|non (?:usare|fare)|d\'ora in poi|nunca|lembre|prefiro|não use)\\b',
    '\\b(?:altijd|nooit|onthoud|gebruik geen|voortaan)\\b',
    '必ず|絶対に?|しないで|しないこと|禁止|覚えて|常に|今後は|ください|使って|使うこと',
    '总是|永远|不要|必须|记住|禁止|以后|请使用|务必',
    '항상|절대|하지 ?마|기억해|반드시|앞으로는|사용하세요|쓰지 ?마',
  ].join('|'),
  'iu',
);
/** Sentence ends: `.!?` before whitespace (so `main.ts` stays whole), the CJK full stops, line breaks. */
const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？])|\n+/;
/** A line pasted from a terminal, a diff or a table. */
const PASTED_LINE = /^(?:[+-] \d|➜|\$ |> |\||```)/;
/** Words of venting and profanity removed from a kept instruction ("omfg use fucking rgb values" -> "use rgb values"). */
const VENTING = /\b(?:omfg|wtf|fucking|fuckin|fucked|fuck|shitty|shit|damn|dammit|goddamn|jesus|dude|my dude|bloody|crap|ffs|lol|ugh|you idiot|idiot|stupid)\b[,!.]*\s*/gi;
/** Pasted logs, stack traces, JSON and host/tool protocol text: never an instruction. */
const PASTED = /^\s*[{[]|\bat [\w.<>]+ \(|\b(?:tool_use|tool_result|toolCall|toolu_)\w*|^(?:Error|TypeError|Traceback)\b|Stop hook feedback/i;
/** A value a fact can hold: hex color, port, version, path, URL, command in backticks. */
const VALUE = /#[0-9a-f]{6}\b|(?:\bport|ポート|端口|포트)\s*\d{2,5}\b|[\w-]+(?:\.[\w-]+)+:\d{2,5}\b|\b\d+\.\d+(?:\.\d+)?\b|(?:^|\s)[~.]?\/?[\w.-]+\/[\w./-]+|https?:\/\/\S+|`[^`]{2,80}`/i;
/** Copulas of a stated fact ("X is Y", "X lives in Y", "X uses Y"), in the languages of {@link LASTING_INTL}. */
const STATES = /\b(?:is|are|was|should be|uses?|lives? in|runs? on|listens? on|goes? (?:to|in)|means|ist|sind|läuft|liegt|nutzt|est|sont|utilise|es|está|usa|è|usa|é)\b|[:=]|です|で動|にあ|を使|是|在|用|입니다|에서|사용/iu;
/** What an outcome says: the work done and its result. */
const OUTCOME = /\b(?:done|(?:is|are|now|fully) complete|completed?(?= *[.!]|$)|implemented|ported|added|created|fixed|migrated|committed|released|all (?:\d+ )?tests pass(?:ed)?|tests pass|passing|coverage|works now|now works|verified|reverted|failed on|broke|breaks)\b/i;
/** Narration of what the agent is about to do: not an outcome, not a fix. */
const NARRATION = /^(?:let me|let's|now (?:let me|i'll|i will|i need)|i'll|i will|i need to|i'm going to|next,? i|first,? i|okay,? (?:let me|i'll)|ok,? (?:let me|i'll))\b/i;
/** A fix that says what was wrong or what resolved it. */
const FIX_STATED = /\b(?:root cause|was caused by|the (?:issue|problem|bug) (?:is|was)|fixed by|resolved by|works now|now works|passing now|now passes|the fix (?:is|was))\b/i;
/** Opinions and doubts that contain "don't" but are not rules. */
const NOT_RULE = /^(?:\w+,\s*)?i (?:don'?t|do not) (?:think|tink|know|understand|see|get|remember|care)\b/i;
/** Source code rather than prose (a call or statement). */
const CODE_LINE = /^[\w.$]+\(|[;{]\s*$|\)\s*;?\s*$/;
/** One-off steering ("no, the block should stay as is", "actually, revert that") rather than a rule. */
const CORRECTION_ONLY = /^(?:no|nope|wrong|actually|wait|hm+|that'?s (?:not|wrong)|this is wrong|not like that|undo)\b(?![^.!]*\b(?:always|never|from now on|remember)\b)/i;
/** Explicit memory requests: harvested instructions with these words are stored `important`. */
const EMPHATIC = /\b(?:remember|always|never|from now on)\b/i;
/** One-word replies and acknowledgements that carry no instruction. */
const ACK =
  /^(?:ok(?:ay)?|k|yes|yeah|yep|yup|sure|no|nope|thanks?(?: you)?|thx|ty|continue|go(?: on| ahead)?|do it(?: all)?|proceed|next|done|great|nice|cool|perfect|good|lgtm|sounds good|looks good|fine|alright|right|hmm+|wait|stop|sleep|retry|again|try again|same|and\??)(?:[\s,.!]+(?:ok(?:ay)?|yes|yeah|do it(?: all)?|go(?: on| ahead)?|thanks?|please|all|then|now|continue|proceed))*[\s.!]*$/i;
const WRAPPER = /^(?:<[a-z][\w-]*[\s>]|Caveat: The messages below)/i;
const ERRORISH = /\b(?:error|exception|traceback|failed|failure|fatal|panic|cannot|can't|not found|denied|ENOENT|EACCES|segmentation fault)\b/i;
const FIXISH = /\b(?:fix(?:ed|es)?|resolv(?:ed|es)|the (?:issue|problem|bug) (?:is|was)|root cause|works now|passing now|now passes|should work now)\b/i;
const FILE_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file'];
const WRITE_TOOLS = /^(?:edit|multiedit|write|str_replace.*|create|apply_patch|patch|notebookedit|write_file|edit_file|replace)$/i;

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 && s.length <= 600);
}

/** The event's own time as ISO 8601, or undefined when the transcript had none usable. */
function tsOf(e: { ts?: unknown }): string | undefined {
  if (typeof e.ts !== 'string') return undefined;
  const t = Date.parse(e.ts);
  return Number.isNaN(t) || t > Date.now() + 86_400_000 ? undefined : new Date(t).toISOString();
}

/**
 * The lasting instruction in a user message, or undefined: slash commands, acknowledgements,
 * host wrappers, messages of fewer than 4 words, and question-only messages are skipped; of the
 * rest, the sentences with rule/preference phrasing ({@link LASTING}) or a correction are kept
 * (at most 3, each 12-400 characters).
 */
export function instructionOf(text: string): string | undefined {
  const t = text.trim();
  if (!t || WRAPPER.test(t)) return undefined;
  if (/^\/[\w:.-]*(?:\s+\S+){0,3}\s*$/.test(t)) return undefined; // slash command (with a few arguments)
  if (ACK.test(t) || PASTED.test(t)) return undefined;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t);
  if (!cjk && t.split(/\s+/).length < 4) return undefined;
  const ss = t
    .split(SENTENCE_END)
    .map((x) => {
      // venting removed; a sentence that then starts with its real first word gets its capital back
      const y = x.replace(VENTING, '').replace(/^[,;:\s-]+/, '').trim();
      return y !== x.trim() ? y.charAt(0).toUpperCase() + y.slice(1) : y;
    })
    .filter((x) => x.length >= (cjk ? 6 : 12) && x.length <= 400 && !PASTED_LINE.test(x));
  const keep = ss.filter((x) => !/[?？]$/.test(x) && !NOT_RULE.test(x) && !CODE_LINE.test(x) && !CORRECTION_ONLY.test(x) && (LASTING.test(x) || LASTING_INTL.test(x)));
  if (!keep.length) return undefined;
  return keep.slice(0, 3).join(' ');
}

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, max - 1) + '…';
}

function filesOf(input: unknown, out: Set<string>): void {
  if (!input || typeof input !== 'object') {
    if (typeof input === 'string') for (const m of input.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) out.add(m[1]!.trim());
    return;
  }
  const o = input as Record<string, unknown>;
  for (const k of FILE_KEYS) if (typeof o[k] === 'string' && (o[k] as string).length < 500) out.add(o[k] as string);
  for (const k of ['input', 'patch', 'command', 'cmd']) if (typeof o[k] === 'string') filesOf(o[k], out);
  if (Array.isArray(o.edits)) for (const e of o.edits) filesOf(e, out);
}

/** Minified code, hashes and binary noise: long unbroken tokens or mostly punctuation. */
function isNoise(line: string): boolean {
  if (/\S{90,}/.test(line)) return true;
  const letters = (line.match(/[\p{L}\s]/gu) ?? []).length;
  return line.length > 20 && letters / line.length < 0.6;
}

/** A tool error worth remembering with its fix: not a bare exit status, an abort or noise. */
function meaningfulError(line: string): boolean {
  const t = line.replace(/\(no output\)|Command exited with code \d+|Exit code \d+/gi, '').trim();
  return t.length >= 12 && !/^(?:command aborted|aborted|interrupted|cancelled)\b/i.test(t) && !isNoise(t);
}

/** Environment facts the user states: a value (hex color, port, version, path, URL, command) with a copula. */
function environmentFacts(text: string): string[] {
  if (PASTED.test(text)) return [];
  return text
    .split(SENTENCE_END)
    .map((x) => x.replace(VENTING, '').trim())
    .filter((x) => x.length >= 12 && x.length <= 400 && !/[?？]$/.test(x) && !PASTED_LINE.test(x) && VALUE.test(x) && STATES.test(x) && !isNoise(x) && !CODE_LINE.test(x))
    .slice(0, 2);
}

/** The first line of a host's hook feedback ("Stop hook feedback: ... Cannot exit with unstaged changes"), as an environment fact. */
function hookFeedback(text: string): string | undefined {
  const m = /^(\w[\w ]{0,20} hook feedback):.*?((?:Cannot|Can't|Must|Please|Refus)[^.#\n]{8,160})/is.exec(text);
  return m ? `${m[1]!.replace(/ feedback$/i, '')} (host check): ${m[2]!.replace(/\s+/g, ' ').trim()}` : undefined;
}

/**
 * Outcome sentences of an assistant message that ends a turn: what was done and its result
 * (done, implemented, ported, tests pass, coverage...; narration such as "let me" and intros
 * ending in `:` are not outcomes). With `decisions`, the decision sentences too ("we decided to
 * pin pnpm to 9.12 because...": the Stop hook keeps both). At most 3 (4) sentences, in order;
 * undefined when there is none.
 */
export function outcomeOf(text: string, opts: { decisions?: boolean } = {}): string | undefined {
  const ss = text
    .replace(/[*_#`]+/g, '')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.replace(/^\s*(?:[-•]|\d+[.)])\s*/, '').trim())
    .filter((x) => x.length >= 16 && x.length <= 400 && !NARRATION.test(x) && !/[?:]$/.test(x) && !PASTED_LINE.test(x) && !isNoise(x))
    .filter((x) => OUTCOME.test(x) || (opts.decisions && DECISION.test(x) && !NOT_DECISION.test(x)));
  return ss.length ? ss.slice(0, opts.decisions ? 4 : 3).join(' ') : undefined;
}

/**
 * Turn a session's events into frames of lasting facts:
 * - `instruction`: the user's standing instructions and preferences ({@link instructionOf}: rule
 *   phrasing in English and eight other languages; venting words removed; pasted logs, protocol
 *   text, acknowledgements and one-off corrections skipped); `important` when the user said
 *   remember/always/never/from now on, else `normal`;
 * - `environment`: values the user states (a port, path, version, color, command with "is",
 *   "uses", "runs on"...), and the first line of a host's hook feedback;
 * - `decision`: the assistant's commitments (decision phrasing, not guesses or narration);
 * - `fix`: a tool error with the assistant's next sentence that states the cause or the
 *   resolution (bare exit codes, aborts, minified code and narration such as "let me fix it" are
 *   not kept; an error without such a fix is counted, not stored);
 * - `outcome`: from the last assistant message of each turn, the sentences saying what was done
 *   and its result (done, implemented, tests pass, coverage...);
 * - `file`: the files read and modified, one frame per session.
 * Every frame's `createdAt` is its event's timestamp (the last event's for the file list), and
 * every frame carries host, sessionId and a `turnId` of `import:<seq>...`, so importing the same
 * transcript twice adds nothing (idempotency key). Checkpoint summaries and repair nodes are skipped.
 */
export function harvestEvents(events: readonly SessionEvent[], ctx: { host: string; sessionId: string; workspace?: string }): Harvest {
  const frames: FrameInput[] = [];
  const counts: HarvestCounts = { instruction: 0, decision: 0, error: 0, fix: 0, outcome: 0, environment: 0, file: 0 };
  const base = { host: ctx.host, sessionId: ctx.sessionId, source: 'import' as const, ...(ctx.workspace ? { workspace: ctx.workspace, scope: 'workspace' as const } : {}) };
  const modified = new Set<string>();
  const read = new Set<string>();
  const callNames = new Map<string, string>();
  let pendingError: { seq: number; text: string } | undefined;
  let lastTs: string | undefined;
  // the last assistant text of the current turn: its outcome is kept when the turn ends
  let turnEnd: { seq: number; text: string; when: { createdAt?: string } } | undefined;
  const endTurn = () => {
    const o = turnEnd && outcomeOf(turnEnd.text);
    if (turnEnd && o) {
      frames.push({ ...base, ...turnEnd.when, kind: 'outcome', importance: 'normal', content: clip(o, 800), turnId: `import:${turnEnd.seq}:outcome`, tags: ['outcome'] });
      counts.outcome++;
    }
    turnEnd = undefined;
  };
  for (const e of events) {
    const at = tsOf(e as { ts?: unknown });
    if (at) lastTs = at;
    const when = at ? { createdAt: at } : {};
    if (!('content' in e) || !Array.isArray((e as { content?: unknown }).content)) continue;
    const ev = e as Extract<SessionEvent, { content: ContentBlock[] }>;
    if (ev.kind === 'checkpoint' || ev.kind === 'repair') continue;
    if (ev.type === 'user/message') {
      const text = textOf(ev.content);
      if (text) endTurn();
      const fb = hookFeedback(text);
      if (fb) {
        frames.push({ ...base, ...when, kind: 'environment', importance: 'normal', content: clip(fb, 400), turnId: `import:${ev.seq}:hook`, tags: ['environment', 'hook'] });
        counts.environment++;
        continue;
      }
      const t = instructionOf(text);
      if (t) {
        frames.push({ ...base, ...when, kind: 'instruction', content: clip(t, 1200), turnId: `import:${ev.seq}`, importance: EMPHATIC.test(t) ? 'important' : 'normal', tags: ['user'] });
        counts.instruction++;
      }
      environmentFacts(text)
        .filter((f) => !t || !t.includes(f))
        .forEach((f, i) => {
          frames.push({ ...base, ...when, kind: 'environment', importance: 'normal', content: clip(f, 400), turnId: `import:${ev.seq}:env${i}`, tags: ['environment', 'user'] });
          counts.environment++;
        });
    }
    for (const b of ev.content) {
      if (b.type === 'tool-call') {
        callNames.set(b.id, b.name);
        const fs = new Set<string>();
        filesOf(b.input, fs);
        for (const f of fs) (WRITE_TOOLS.test(b.name) ? modified : read).add(f);
      } else if (b.type === 'tool-result') {
        const t = b.content
          .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        const firstErr = t.split('\n').find((l) => ERRORISH.test(l));
        if (b.isError || (firstErr && /^(?:error|fatal|traceback|exception)/i.test(firstErr.trim()))) {
          const line = clip(firstErr ?? t, 500);
          counts.error++;
          pendingError = line && meaningfulError(line) ? { seq: ev.seq, text: line } : undefined;
        }
      }
    }
    if (ev.type === 'assistant/message') {
      const t = textOf(ev.content);
      if (!t) continue;
      turnEnd = { seq: ev.seq, text: t, when };
      const ss = sentences(t);
      const decisions = ss.filter((s) => DECISION.test(s) && !NOT_DECISION.test(s) && !CODE_LINE.test(s) && !s.endsWith('?') && !isNoise(s)).slice(0, 3);
      decisions.forEach((s, i) => {
        frames.push({ ...base, ...when, importance: 'normal', kind: 'decision', content: clip(s, 600), turnId: `import:${ev.seq}:${i}`, tags: ['decision'] });
        counts.decision++;
      });
      if (pendingError) {
        const fix = ss.find((s) => FIX_STATED.test(s) && !NARRATION.test(s) && !isNoise(s));
        if (fix) {
          frames.push({ ...base, ...when, kind: 'fix', content: clip(`Fix for "${clip(pendingError.text, 160)}": ${fix}`, 800), turnId: `import:${ev.seq}:fix`, tags: ['fix'] });
          counts.fix++;
          pendingError = undefined;
        }
      }
    }
  }
  endTurn();
  if (modified.size || read.size) {
    const parts: string[] = [];
    if (modified.size) parts.push(`modified: ${[...modified].slice(0, 200).join(', ')}`);
    const onlyRead = [...read].filter((f) => !modified.has(f));
    if (onlyRead.length) parts.push(`read: ${onlyRead.slice(0, 200).join(', ')}`);
    frames.push({ ...base, ...(lastTs ? { createdAt: lastTs } : {}), kind: 'file', content: `Files touched in session ${ctx.sessionId} (${ctx.host}): ${parts.join('; ')}`, turnId: 'import:files', tags: ['files'] });
    counts.file++;
  }
  return { frames, counts };
}

/**
 * The session's working directory as the transcript recorded it: Claude Code's per-record `cwd`,
 * pi's session header `cwd`, Codex's `session_meta`/`turn_context` payload `cwd`. Undefined
 * when none is recorded or it is not an absolute path.
 */
export function transcriptCwd(events: readonly SessionEvent[], state?: Record<string, unknown>): string | undefined {
  const abs = (v: unknown) => (typeof v === 'string' && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v)) ? v : undefined);
  const common = state?.common as Record<string, unknown> | undefined;
  const fromState = abs(common?.cwd) ?? abs(state?.cwd);
  if (fromState) return fromState;
  for (const e of events) {
    if (e.type !== 'session/meta' && e.type !== 'host/record') continue;
    const d = (e as { data?: Record<string, unknown> }).data;
    if (!d) continue;
    const rec = d.record as Record<string, unknown> | undefined;
    const payload = (d.payload ?? rec?.payload) as Record<string, unknown> | undefined;
    const c = abs(d.cwd) ?? abs(payload?.cwd) ?? abs(rec?.cwd);
    if (c) return c;
  }
  return undefined;
}

/**
 * The host's own id of the session, as the transcript recorded it: the reader's state
 * (`sessionId` of Claude Code's common record fields, Codex's `session_meta`, pi's header), else a
 * `session/meta` event's `id` or `session_id`. Undefined when the file records none.
 */
export function transcriptSessionId(events: readonly SessionEvent[], state?: Record<string, unknown>): string | undefined {
  const ok = (v: unknown) => (typeof v === 'string' && v.trim() && v.length <= 512 ? v.trim() : undefined);
  const common = state?.common as Record<string, unknown> | undefined;
  const fromState = ok(state?.sessionId) ?? ok(common?.sessionId) ?? ok(state?.session_id);
  if (fromState) return fromState;
  for (const e of events) {
    if (e.type !== 'session/meta') continue;
    const d = (e as { data?: Record<string, unknown> }).data;
    const id = ok(d?.id) ?? ok(d?.session_id) ?? ok(d?.sessionId);
    if (id) return id;
  }
  return undefined;
}

/**
 * Read a transcript in any format `@hive-mind/transcripts` reads (loaded lazily here) and
 * harvest it. `onProgress(bytes, total)` reports reading progress.
 * Throws the transcripts package's `TranscriptError` (one line naming file, line and field).
 */
export async function harvestTranscriptFile(
  path: string,
  opts: { lenient?: boolean; onProgress?: (bytes: number, total: number) => void; workspace?: string } = {},
): Promise<Harvest & { format: string; sessionId: string; events: number; cwd?: string }> {
  const { readTranscriptFile } = await import('@hive-mind/transcripts');
  const t = await readTranscriptFile(path, { ...(opts.lenient ? { lenient: true } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const events = t.log.events();
  // provenance: the host's own session id; the file name only when the file records none
  const sessionId = transcriptSessionId(events, t.source.state) ?? (t.log.id || path.replace(/^.*[\\/]/, ''));
  const h = harvestEvents(events, { host: t.format, sessionId, ...(opts.workspace ? { workspace: opts.workspace } : {}) });
  const cwd = transcriptCwd(events, t.source.state);
  return { ...h, format: t.format, sessionId, events: events.length, ...(cwd ? { cwd } : {}) };
}
