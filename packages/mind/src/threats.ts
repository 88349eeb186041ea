/**
 * Threat scan: content that tries to steer a future model (prompt-injection phrasing) or hides
 * text from a human reviewer (invisible or bidirectional-control Unicode, Unicode tag characters).
 * Flagged content is quarantined by the store: kept and visible in `doctor`, never recalled
 * automatically. Returns stable threat ids (`family:detail`).
 *
 * Character classes: zero-width and invisible formatting characters (U+200B–U+200D, U+2060–U+2064,
 * U+FEFF not at the start, U+180E), bidi controls (U+200E/U+200F marks, U+202A–U+202E embeddings and
 * overrides, U+2066–U+2069 isolates: the "Trojan Source" class, CVE-2021-42574), Unicode tag
 * characters U+E0000–U+E007F (used to smuggle invisible ASCII).
 */

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
    id: 'prompt-injection:exfiltrate',
    re: /\b(?:send|post|upload|exfiltrate|forward)\s+(?:all\s+|the\s+|your\s+|any\s+)*(?:secrets?|credentials?|api\s+keys?|tokens?|passwords?|env(?:ironment)?\s+variables?|ssh\s+keys?)\s+to\s+(?:https?:\/\/|\S+@)/i,
  },
];

const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\u180E]|(?!^)\uFEFF/u;
const BIDI = /[\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/u;
const TAGS = /[\u{E0000}-\u{E007F}]/u;

/** Threat ids found in `text` (`[]` when clean). Order is stable. */
export function scanThreats(text: string): string[] {
  const found: string[] = [];
  if (INVISIBLE.test(text)) found.push('unicode:invisible');
  if (BIDI.test(text)) found.push('unicode:bidi-control');
  if (TAGS.test(text)) found.push('unicode:tag-characters');
  // phrase rules see the text with invisible characters removed, so they cannot be split by them
  const visible = text.replace(/[\u200B-\u200F\u2060-\u2064\u180E\uFEFF\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/gu, '');
  for (const r of PHRASES) if (r.re.test(visible)) found.push(r.id);
  return found;
}
