import { createRequire } from 'node:module';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';

/**
 * Secret redaction applied before anything reaches a .mind file, a notes file, a spool or a log.
 *
 * Three layers, in this order, each replacing the secret (never the surrounding context such as a
 * variable name, a scheme or a header name) with a typed placeholder `[REDACTED:<type>]`:
 *
 * 1. **Context rules** (below, `RULES`): vendor prefixes secretlint's preset does not cover (Stripe,
 *    Google `AIza`, JWTs, OpenAI legacy keys, ...) and context-keeping rules (`KEY=value` under a
 *    secret-sounding name, `Authorization:` headers, the password of `scheme://user:password@host`).
 * 2. **The maintained rule set**: every scanner rule of `@secretlint/secretlint-rule-preset-recommend`
 *    (MIT, a dependency pinned in package.json; see {@link secretRuleSet}), run in-process through
 *    its rule API (`create(context).file(source)`, synchronous for text sources). A reported range is
 *    widened to the end of its token, since some rules report a range shorter than the secret.
 * 3. **Entropy**: `KEY=value` assignments of an environment dump (upper-case name; one a line or run
 *    together) whose value looks random (see {@link looksRandom}) are redacted as `high-entropy`.
 *
 * A placeholder is never matched again, so redaction is idempotent.
 */

/** One redaction rule. `keep` is the number of leading capture groups kept verbatim. */
interface Rule {
  type: string;
  re: RegExp;
  /** Replacement: when set, receives the match groups; default replaces the whole match. */
  replace?: (m: string, ...groups: string[]) => string;
  // returning the match unchanged means "not a secret" (nothing is recorded)
}

const P = (type: string) => `[REDACTED:${type}]`;

// A value that is already a placeholder (or a template like ${VAR}) is not a secret.
const NOT_PLACEHOLDER = String.raw`(?!\[REDACTED:)(?!\$\{)(?!<)`;

const SECRET_KEY_WORDS = String.raw`(?:SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|AUTH[_-]?KEY|SESSION[_-]?KEY|SIGNING[_-]?KEY|ENCRYPTION[_-]?KEY|DSN)`;

// Code around a secret-sounding name is not a secret: `apiKey: string`, `token = opts.token`,
// `sessionKey = str(p.sessionKey)` (calls are excluded by the rule itself), `API_KEY: DEFAULT_API_KEY`,
// a regular expression literal `TOKEN_RE = /x/g`.
const CODE_REFERENCE = /^(?:(?:string|number|boolean|null|undefined|true|false|any|unknown|never|void)\??|[a-z_$][\w$]*(?:\??\.[\w$]+)+\??|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[{[`].*|\/.+\/[dgimsuy]*)$/;
function isCodeReference(value: string): boolean {
  return CODE_REFERENCE.test(value);
}
// A quoted value that is a flag name, an environment variable's name, a colon path or (unless the
// key says password/passphrase/secret) several words is text, not a secret: `tokenize = 'porter unicode61'`.
function isNotSecretText(value: string, key: string): boolean {
  // a flag, an environment variable's name, a colon path such as OpenClaw's `agent:main:main`
  if (/^-|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[a-z]+(?::[a-z0-9-]+)+$/.test(value)) return true;
  return /\s/.test(value.trim()) && !/pass|secret/i.test(key);
}

// A value under a token/key name must look generated to be a secret: it holds a digit, or it is long
// and varied (Shannon entropy >= 3.5 bits per character over >= 16 characters). Under a
// password/secret name anything of 4+ characters counts, since people pick words as passwords.
// Plain words and file names are prose or code: `bearer token: send it`, `{ token: given }`,
// `TOKEN_FILE = "mcp-http.token"`, `apiKey: loopbackKey`.
function looksGenerated(value: string, key: string): boolean {
  const v = value.replace(/[)\]}>.]+$/, '');
  if (/pass|secret|credential/i.test(key)) return v.length >= 4;
  if (v.length < 8) return false;
  if (/\d/.test(v)) return true;
  return v.length >= 16 && shannonEntropy(v) >= 3.5;
}

const RULES: Rule[] = [
  {
    type: 'pem-private-key',
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
  },
  { type: 'aws-access-key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  { type: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { type: 'gitlab-token', re: /\bgl(?:pat|dt|rt|ptt|cbt|imt|oas|ft|soat|wt|agent)-[A-Za-z0-9_-]{20,}/g },
  { type: 'anthropic-key', re: /\bsk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,}/g },
  { type: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { type: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g },
  { type: 'slack-token', re: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { type: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { type: 'stripe-webhook-secret', re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  { type: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { type: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { type: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    type: 'bearer-token',
    re: new RegExp(String.raw`(\bAuthorization\s*[:=]\s*["']?(?:Bearer|Token|Basic)\s+)${NOT_PLACEHOLDER}([^\s"',;]+)`, 'gi'),
    replace: (_m, pre) => `${pre}${P('bearer-token')}`,
  },
  {
    type: 'bearer-token',
    re: new RegExp(String.raw`(\bBearer\s+)${NOT_PLACEHOLDER}([A-Za-z0-9._~+/=-]{16,})`, 'g'),
    replace: (_m, pre) => `${pre}${P('bearer-token')}`,
  },
  {
    // scheme://user:password@host  (postgres, mysql, mongodb+srv, redis, amqp, https...)
    type: 'password',
    re: new RegExp(String.raw`(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)${NOT_PLACEHOLDER}([^\s@/]+)(@)`, 'g'),
    replace: (_m, pre, _pw, at) => `${pre}${P('password')}${at}`,
  },
  {
    // .env / shell / YAML / INI style:  [export] SOME_SECRET_KEY=value   api_key: "value"   run DB_PASSWORD=x npm start
    type: 'secret-value',
    re: new RegExp(
      String.raw`((?:^|(?<=[\s;&|(,{]))(?:export[ \t]+)?["']?([A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*)["']?[ \t]*[=:][ \t]*)(?:"${NOT_PLACEHOLDER}([^"\n]+)"|'${NOT_PLACEHOLDER}([^'\n]+)'|${NOT_PLACEHOLDER}(?![^\s"'#,;]*\()([^\s"'#,;]+))`,
      'gim',
    ),
    replace: (m, pre, key, dq, sq, bare) => {
      // counters and limits are not secrets: max_tokens=4096, TOKENS_PER_MINUTE: 100, token_count: 3
      if (/tokens|tokeniz|token_?(?:count|limit|budget|usage)|max_?token|password_?(?:policy|length|min|max)/i.test(key ?? '')) return m;
      if (bare ? isCodeReference(bare) : isNotSecretText(dq || sq || '', key ?? '')) return m;
      if (!looksGenerated(bare || dq || sq, key ?? '')) return m;
      const q = dq ? '"' : sq ? "'" : '';
      return `${pre}${q}${P('secret-value')}${q}`;
    },
  },
  {
    // JSON style: "client_secret": "value"
    type: 'secret-value',
    re: new RegExp(String.raw`("[A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*"\s*:\s*")${NOT_PLACEHOLDER}([^"\n]{4,})(")`, 'gi'),
    replace: (m, pre, value, post) =>
      isNotSecretText(value, pre) || !looksGenerated(value, pre) ? m : `${pre}${P('secret-value')}${post}`,
  },
  {
    // --password=value / --token value on command lines
    type: 'secret-value',
    re: new RegExp(String.raw`((?:^|(?<=[\s"'=]))--?(?:password|passwd|token|api-key|secret)[= ])${NOT_PLACEHOLDER}([^\s"']{4,})`, 'gi'),
    replace: (_m, pre) => `${pre}${P('secret-value')}`,
  },
];

/** The part of secretlint's rule API this module uses (see `@secretlint/types`). */
interface LintRule {
  meta: { id: string; type?: string };
  create(
    context: {
      createTranslator: (messages: unknown) => (id: string, props?: unknown) => string;
      report: (d: { message: string; range: readonly [number, number] | number[] }) => void;
      ignore: (d: unknown) => void;
    },
    options: Record<string, unknown>,
  ): { file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown };
}

// secretlint-disable comments are not honoured: a stored text must not switch redaction off.
const PRESET_SKIPPED = new Set(['@secretlint/secretlint-rule-filter-comments']);
// options beyond the preset's defaults: AWS access key ids are off by default in secretlint (noise in
// code review); in memory text an access key id next to its secret is exactly what must not be kept.
const PRESET_OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};
const PRESET_RULES = (presetRules as unknown as LintRule[]).filter((r) => !PRESET_SKIPPED.has(r.meta.id));

/** The type a preset rule's finding is stored under: its id without the `@secretlint/secretlint-rule-` prefix. */
function presetType(id: string): string {
  return id.replace(/^@secretlint\/secretlint-rule-/, '');
}

const NO_TRANSLATION = () => () => '';
// where a reported range is widened to: the end of the token (quotes, spaces and brackets end it)
const TOKEN_TAIL = /[^\s"'`,;<>(){}[\]]*/y;

/**
 * Ranges the preset reports in `text`, each widened to the end of its token, with the rule's type.
 * A JSON text is also scanned as a `.json` file (Google Cloud service-account keys are only looked for there).
 */
function presetFindings(text: string): Array<{ start: number; end: number; type: string }> {
  const found: Array<{ start: number; end: number; type: string }> = [];
  const exts = /^\s*\{/.test(text) ? ['.txt', '.json'] : ['.txt'];
  for (const rule of PRESET_RULES) {
    const type = presetType(rule.meta.id);
    const handler = rule.create(
      {
        createTranslator: NO_TRANSLATION,
        report: (d) => {
          const start = Number(d.range[0]);
          TOKEN_TAIL.lastIndex = Number(d.range[1]);
          const end = Number(d.range[1]) + (TOKEN_TAIL.exec(text)?.[0].length ?? 0);
          if (end > start) found.push({ start, end, type });
        },
        ignore: () => {},
      },
      PRESET_OPTIONS[rule.meta.id] ?? {},
    );
    for (const ext of exts) handler.file?.({ content: text, filePath: `memory${ext}`, ext, contentType: 'text' });
  }
  return found;
}

/** Replace the preset's findings, skipping those that overlap a placeholder already written. */
function redactPreset(text: string, redactions: string[]): string {
  const found = presetFindings(text).sort((x, y) => x.start - y.start || y.end - x.end);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue; // inside the previous finding
    if (text.slice(f.start, f.end).includes('[REDACTED:')) continue; // a context rule kept the names around it
    out += text.slice(at, f.start) + P(f.type);
    redactions.push(f.type);
    at = f.end;
  }
  return out + text.slice(at);
}

// `[export] NAME=value` as `env`, `printenv`, `docker inspect` and `.env` files print them, one a line
// or run together on one line (a dump pasted into a sentence, `docker run -e NAME=value`)
const ENV_ASSIGNMENT = /(^|[\s;'"(])((?:export[ \t]+)?[A-Z][A-Z0-9_]{0,63}=)(["']?)([A-Za-z0-9+/=_.~-]{16,512})\3(?=$|[\s;'")])/gm;

/** Shannon entropy of `s`, in bits per character. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) h -= (c / n) * Math.log2(c / n);
  return h;
}

/**
 * Whether an environment value looks like a generated secret rather than a word, a version, a path
 * or an identifier: at least 16 characters, digits and letters mixed (at least 2 digits and 2
 * letters), not a version (`8.15.4-canary.1`), no run of 5+ lower-case letters forming most of it, and Shannon entropy of at least
 * 3.5 bits per character (3.0 for hex, whose alphabet has 16 symbols).
 * Thresholds follow common practice in secret scanners (entropy 3.5 over base62/base64, 3.0 over hex).
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || /^v?\d+\.\d+/.test(value)) return false; // short, or a version
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
  return text.replace(ENV_ASSIGNMENT, (m, lead: string, name: string, q: string, value: string) => {
    if (!looksRandom(value)) return m;
    redactions.push('high-entropy');
    return `${lead}${name}${q}${P('high-entropy')}${q}`;
  });
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

/** The redaction types: the context rules', the preset's, and `high-entropy` (for docs and `doctor`). */
export const REDACTION_TYPES: readonly string[] = [
  ...new Set([...RULES.map((r) => r.type), ...PRESET_RULES.map((r) => presetType(r.meta.id)), 'high-entropy']),
];

/** The maintained rule set redaction runs, with its installed version (read from its package.json). */
export function secretRuleSet(): { name: string; version: string; rules: string[] } {
  const name = '@secretlint/secretlint-rule-preset-recommend';
  const pkg = createRequire(import.meta.url)(`${name}/package.json`) as { version: string };
  return { name, version: pkg.version, rules: PRESET_RULES.map((r) => r.meta.id) };
}

/**
 * Replace secrets in `text` by `[REDACTED:<type>]` placeholders.
 * Returns the redacted text and the list of types found (one entry per replacement, in order).
 * Idempotent: `redactSecrets(redactSecrets(t).text).redactions` is empty.
 */
export function redactSecrets(text: string): { text: string; redactions: string[] } {
  const redactions: string[] = [];
  let out = text;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (m: string, ...rest: unknown[]) => {
      redactions.push(rule.type);
      if (rule.replace) {
        // callback args: match, p1..pn, offset, whole string (no named groups are used)
        const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
        const out = rule.replace(m, ...groups);
        if (out === m) {
          redactions.pop();
          return m;
        }
        return out;
      }
      return P(rule.type);
    });
  }
  out = redactPreset(out, redactions);
  out = redactEntropy(out, redactions);
  return { text: out, redactions };
}
