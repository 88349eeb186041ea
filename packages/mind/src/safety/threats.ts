/**
 * Threat scan: content that tries to steer a future model (prompt-injection phrasing), hides
 * text from a human reviewer (invisible or bidirectional-control Unicode, Unicode tag characters), or
 * holds a command that destroys or fetches and runs code (`dangerous-command:*`, dangerous-commands.ts).
 * Flagged content is quarantined by the store: kept and visible in `doctor`, never recalled
 * automatically. Returns stable threat ids (`family:detail`).
 *
 * Character classes: zero-width and invisible formatting characters (U+200B–U+200D, U+2060–U+2064,
 * U+FEFF not at the start, U+180E), bidi controls (U+200E/U+200F marks, U+202A–U+202E embeddings and
 * overrides, U+2066–U+2069 isolates: the "Trojan Source" class, CVE-2021-42574), Unicode tag
 * characters U+E0000–U+E007F (used to smuggle invisible ASCII). Not flagged: a zero-width joiner inside
 * an emoji ZWJ sequence (🧘‍♀️, 👨‍👩‍👧, 🏳️‍🌈; Unicode TR51 §2.3) and a ZWJ/ZWNJ between two non-ASCII
 * letters or marks (Persian, Devanagari, Malayalam... spell with them); see {@link isLegitJoiner}.
 */

import { dangerousCommands } from './dangerous-commands.js';

interface PhraseRule {
  id: string;
  re: RegExp;
}

const PHRASES: PhraseRule[] = [
  {
    id: 'prompt-injection:ignore-previous',
    re: /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+)*(?:previous|prior|above|earlier|preceding|original|existing|system|developer)\s+(?:instructions?|prompts?|rules?|directives?|guidelines?|messages?|context|constraints?)\b/i,
  },
  {
    id: 'prompt-injection:forget-everything',
    re: /\b(?:forget|ignore|disregard)\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|(?:that\s+)?(?:came\s+)?(?:before|above))\b/i,
  },
  {
    id: 'prompt-injection:role-override',
    re: /\b(?:you\s+are\s+now|from\s+now\s+on\s+you\s+are|act\s+as|pretend\s+(?:to\s+be|you\s+are))\s+(?:an?\s+)?(?:DAN\b|jailbroken|unrestricted|unfiltered|developer\s+mode|evil|uncensored|(?:a\s+)?different\s+(?:ai|assistant|model))/i,
  },
  {
    id: 'prompt-injection:new-instructions',
    re: /(?:^|\n)\s*(?:#+\s*)?(?:new|updated|real|actual|hidden)\s+(?:system\s+)?instructions?\s*:/i,
  },
  {
    id: 'prompt-injection:system-prompt',
    re: /\b(?:reveal|print|output|show|repeat|leak|disclose)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+)?(?:system\s+prompt|initial\s+instructions|developer\s+message)/i,
  },
  {
    id: 'prompt-injection:chat-template',
    re: /<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>|\[\/?INST\]|<\/?(?:system|sys)>|<<SYS>>/i,
  },
  {
    id: 'prompt-injection:hide-from-user',
    re: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|let)\s+the\s+user\b/i,
  },
  {
    // a complete forged tool call or tool result block (Anthropic, Hermes/Qwen, OpenAI harmony tags)
    id: 'prompt-injection:tool-markup',
    re: /<(function_calls|function_results|invoke|tool_call|tool_calls|tool_result|tool_response|tool_use)\b[^>]{0,200}>[\s\S]{0,20000}?<\/\1\s*>|<\|(?:call|channel|start)\|>/i,
  },
  {
    // a closing of the block hive-mind frames injected memory with (see neutralize.ts)
    id: 'prompt-injection:frame-escape',
    re: /<\/\s*hive-mind-memory/i,
  },
  {
    // a forged conversation turn: "\n\nHuman: ... \n\nAssistant:" (Anthropic's legacy turn markers)
    id: 'prompt-injection:role-turn',
    re: /(?:^|\n)\s*(?:human|user)\s*:[^\n]*\n(?:[^\n]*\n){0,20}?\s*assistant\s*:/i,
  },
  {
    id: 'prompt-injection:exfiltrate',
    re: /\b(?:send|post|upload|exfiltrate|forward)\s+(?:all\s+|the\s+|your\s+|any\s+)*(?:secrets?|credentials?|api\s+keys?|tokens?|passwords?|env(?:ironment)?\s+variables?|ssh\s+keys?)\s+to\s+(?:https?:\/\/|\S+@)/i,
  },
];

// invisible formatting characters and bidi controls (global: every occurrence is checked for a legit joiner)
const INVISIBLE_ALL = /[\u200B-\u200D\u2060-\u2064\u180E]|(?!^)\uFEFF/gu;
const BIDI = /[\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/u;
const TAGS = /[\u{E0000}-\u{E007F}]/u;
const HIDDEN_ALL = /[\u200B-\u200F\u2060-\u2064\u180E\u202A-\u202E\u2066-\u2069\u061C]|(?!^)\uFEFF|[\u{E0000}-\u{E007F}]/gu;

const EMOJI_BEFORE = /[\p{Extended_Pictographic}\u{FE0F}\u{1F3FB}-\u{1F3FF}\u20E3]$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
const LETTER_BEFORE = /[\p{L}\p{M}]$/u;
const LETTER_AFTER = /^[\p{L}\p{M}]/u;

/**
 * Whether the character at `offset` of `s` is a joiner that ordinary text needs: a zero-width joiner
 * (U+200D) between an emoji (or its VS16 / skin-tone modifier) and the next emoji of a ZWJ sequence,
 * or a ZWJ/ZWNJ (U+200C) between two non-ASCII letters or marks. Any other invisible character is not.
 */
export function isLegitJoiner(s: string, offset: number): boolean {
  const ch = s[offset];
  if (ch !== '\u200D' && ch !== '\u200C') return false;
  const before = s.slice(Math.max(0, offset - 2), offset);
  const after = s.slice(offset + 1, offset + 3);
  if (ch === '\u200D' && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after)) return true;
  const b = before.slice(-1);
  const a = after.slice(0, 1);
  return !!a && !!b && b.charCodeAt(0) > 0x7f && a.charCodeAt(0) > 0x7f && LETTER_BEFORE.test(before) && LETTER_AFTER.test(after);
}

/** `text` without the invisible, bidi-control and tag characters the scan flags (legit joiners kept). */
export function stripInvisible(text: string): string {
  return text.replace(HIDDEN_ALL, (ch: string, offset: number, s: string) => (isLegitJoiner(s, offset) ? ch : ''));
}

function hasInvisible(text: string): boolean {
  INVISIBLE_ALL.lastIndex = 0;
  for (const m of text.matchAll(INVISIBLE_ALL)) if (!isLegitJoiner(text, m.index ?? 0)) return true;
  return false;
}

/** Threat ids found in `text` (`[]` when clean). Order is stable. */
export function scanThreats(text: string): string[] {
  const found: string[] = [];
  if (hasInvisible(text)) found.push('unicode:invisible');
  if (BIDI.test(text)) found.push('unicode:bidi-control');
  if (TAGS.test(text)) found.push('unicode:tag-characters');
  // phrase rules see the text with invisible characters removed, so they cannot be split by them
  const visible = text.replace(HIDDEN_ALL, '');
  for (const r of PHRASES) if (r.re.test(visible)) found.push(r.id);
  found.push(...dangerousCommands(visible));
  return found;
}
