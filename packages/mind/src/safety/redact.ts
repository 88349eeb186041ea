import { SECRET_RULES, isPlaceholderToken, placeholder, shannonEntropy } from './secret-rules.js';
import { presetStamp, presetTypes, redactPreset, secretRuleSet } from './secret-preset.js';

/**
 * Secret redaction applied before anything reaches a .mind file, a notes file, a spool or a log.
 *
 * Three layers, in this order, each replacing the secret (never the surrounding context such as a
 * variable name, a scheme or a header name) with a typed placeholder `[REDACTED:<type>]`:
 *
 * 1. **Context rules** (`SECRET_RULES` in secret-rules.ts): vendor formats secretlint's preset does
 *    not cover (Stripe, Google `AIza`/`ya29.`, JWTs, DigitalOcean, Telegram, ...), formats from
 *    gitleaks' default rule set, and context-keeping rules (`KEY=value` under a secret-sounding name,
 *    `Authorization:` and API-key headers, the password of `scheme://user:password@host`, of a URL
 *    query, of `curl -u`, `mysql -p`, `sshpass -p`, `.netrc` and `.npmrc`).
 * 2. **The maintained rule set** (secret-preset.ts): every scanner rule of
 *    `@secretlint/secretlint-rule-preset-recommend` (see {@link secretRuleSet}), in-process.
 * 3. **Entropy**: `KEY=value` assignments of an environment dump (upper-case name; one a line or run
 *    together) whose value looks random (see {@link looksRandom}) are redacted as `high-entropy`.
 *
 * Values that are placeholders, variables, code, words, paths, hashes and identifiers are kept (the
 * probe set bench/probes/redact.json measures both sides). A placeholder is never matched again, so
 * redaction is idempotent.
 */

export { presetStamp, secretRuleSet, shannonEntropy };

// `[export] NAME=value` as `env`, `printenv`, `docker inspect` and `.env` files print them, one a line
// or run together on one line (a dump pasted into a sentence, `docker run -e NAME=value`)
const ENV_ASSIGNMENT = /(^|[\s;'"(])((?:export[ \t]+)?([A-Z][A-Z0-9_]{0,63})=)(["']?)([A-Za-z0-9+/=_.~-]{16,512})\4(?=$|[\s;'")])/gm;
// names whose value is a hash or an identifier, not a credential: GITHUB_SHA, GIT_COMMIT, BUILD_REV,
// IMAGE_DIGEST, CLAUDE_SESSION_ID, REQUEST_UUID
const IDENTIFIER_NAME = /(?:^|_)(?:SHA\d*|COMMIT|REV|REVISION|HASH|DIGEST|CHECKSUM|ETAG|UUID|GUID|ID)(?:_|$)/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// base64 of an image, by its file signature: PNG (\x89PNG), GIF (GIF8), JPEG (\xFF\xD8\xFF), WebP (RIFF)
const BASE64_IMAGE = /^(?:iVBORw0KGgo|R0lGOD|\/9j\/|UklGR)/;

/**
 * Whether an environment value looks like a generated secret rather than a word, a version, a path,
 * a flag or an identifier: at least 16 characters, digits and letters mixed (at least 2 digits and 2
 * letters), not a version (`8.15.4-canary.1`), not a flag (`--max-old-space-size=4096`), not a UUID,
 * not the base64 of an image (by its file signature),
 * no run of 5+ lower-case letters forming most of it, and Shannon entropy of at least 3.5 bits per
 * character (3.0 for hex, whose alphabet has 16 symbols).
 * Thresholds follow common practice in secret scanners (entropy 3.5 over base62/base64, 3.0 over hex).
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || /^v?\d+\.\d+/.test(value) || value.startsWith('-') || UUID.test(value) || BASE64_IMAGE.test(value)) return false;
  const digits = (value.match(/[0-9]/g) ?? []).length;
  const letters = (value.match(/[A-Za-z]/g) ?? []).length;
  if (digits < 2 || letters < 2) return false;
  // words, dotted versions and kebab/snake identifiers: most characters in lower-case runs of 5+
  const wordy = (value.match(/[a-z]{5,}/g) ?? []).reduce((n, w) => n + w.length, 0);
  if (wordy / value.length > 0.5) return false;
  const hex = /^[0-9a-fA-F-]+$/.test(value);
  return shannonEntropy(value) >= (hex ? 3.0 : 3.5);
}

function redactEntropy(text: string, redactions: string[]): string {
  if (!text.includes('=')) return text;
  ENV_ASSIGNMENT.lastIndex = 0;
  return text.replace(ENV_ASSIGNMENT, (m, lead: string, assign: string, name: string, q: string, value: string) => {
    if (IDENTIFIER_NAME.test(name) || !looksRandom(value)) return m;
    redactions.push('high-entropy');
    return `${lead}${assign}${q}${placeholder('high-entropy')}${q}`;
  });
}

function redactContext(text: string, redactions: string[]): string {
  let out = text;
  for (const rule of SECRET_RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (m: string, ...rest: unknown[]) => {
      if (!rule.replace) {
        if (isPlaceholderToken(m)) return m;
        redactions.push(rule.type);
        return placeholder(rule.type);
      }
      // callback args: match, p1..pn, offset, whole string (no named groups are used)
      const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
      const replaced = rule.replace(m, ...groups);
      if (replaced !== m) redactions.push(rule.type);
      return replaced;
    });
  }
  return out;
}

/**
 * A copy of a parsed JSON value with every string redacted (object keys are kept), for payloads
 * that are read before anything extracts text from them (hook stdin). Returns the copy and the
 * number of replacements.
 */
export function redactJson(value: unknown): { value: unknown; redactions: number } {
  let n = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      if (v.length < 8) return v;
      const r = redactSecrets(v);
      n += r.redactions.length;
      return r.text;
    }
    if (!v || typeof v !== 'object') return v;
    if (depth > 64) return null; // deeper than any host payload: dropped rather than stored unread
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth + 1);
    return out;
  };
  const out = walk(value, 0);
  return { value: out, redactions: n };
}

/** The redaction types: the context rules', the preset's, and `high-entropy` (for docs and `doctor`; loads the preset). */
export function redactionTypes(): string[] {
  return [...new Set([...SECRET_RULES.map((r) => r.type), ...presetTypes(), 'high-entropy'])];
}

/** Options of {@link redactSecrets}. */
export interface RedactOptions {
  /**
   * Run the maintained rule set (layer 2). Default true. False only for text already redacted with
   * the current rule set ({@link presetStamp}): a stored frame read back from a file whose stamp
   * matches; the context rules and the entropy layer still run (they are cheap, and a rule added
   * since the text was stored still applies).
   */
  preset?: boolean;
}

/**
 * Replace secrets in `text` by `[REDACTED:<type>]` placeholders.
 * Returns the redacted text and the list of types found (one entry per replacement, in order).
 * Idempotent: `redactSecrets(redactSecrets(t).text).redactions` is empty.
 */
export function redactSecrets(text: string, opts: RedactOptions = {}): { text: string; redactions: string[] } {
  const redactions: string[] = [];
  let out = redactContext(text, redactions);
  if (opts.preset !== false) out = redactPreset(out, redactions);
  out = redactEntropy(out, redactions);
  return { text: out, redactions };
}
