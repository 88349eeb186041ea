/**
 * Secret redaction applied before anything reaches a .mind file or a notes file.
 *
 * Each rule replaces the secret (never the surrounding context such as a variable name,
 * a scheme or a header name) with a typed placeholder `[REDACTED:<type>]`. Rules run in
 * the order listed; specific token formats run before the generic ones, and a placeholder
 * is never matched again, so redaction is idempotent.
 *
 * Token formats are the vendors' published prefixes (AWS `AKIA`/`ASIA` access key ids,
 * GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`, GitLab `glpat-` and siblings,
 * Anthropic `sk-ant-`, OpenAI `sk-`/`sk-proj-`/`sk-svcacct-`, Slack `xox?-` and webhook URLs,
 * Stripe `sk_live_`/`rk_live_`/`whsec_`, Google `AIza`, npm `npm_`), JWTs (RFC 7519 compact form,
 * `eyJ` base64url header), RFC 7468 PEM private key blocks.
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
      String.raw`((?:^|(?<=[\s;&|(,{]))(?:export[ \t]+)?["']?([A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*)["']?[ \t]*[=:][ \t]*)(?:"${NOT_PLACEHOLDER}([^"\n]+)"|'${NOT_PLACEHOLDER}([^'\n]+)'|${NOT_PLACEHOLDER}([^\s"'#,;]+))`,
      'gim',
    ),
    replace: (m, pre, key, dq, sq) => {
      // counters and limits are not secrets: max_tokens=4096, TOKENS_PER_MINUTE: 100, token_count: 3
      if (/tokens|token_?(?:count|limit|budget|usage)|max_?token|password_?(?:policy|length|min|max)/i.test(key ?? '')) return m;
      const q = dq ? '"' : sq ? "'" : '';
      return `${pre}${q}${P('secret-value')}${q}`;
    },
  },
  {
    // JSON style: "client_secret": "value"
    type: 'secret-value',
    re: new RegExp(String.raw`("[A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*"\s*:\s*")${NOT_PLACEHOLDER}([^"\n]{4,})(")`, 'gi'),
    replace: (_m, pre, _v, post) => `${pre}${P('secret-value')}${post}`,
  },
  {
    // --password=value / --token value on command lines
    type: 'secret-value',
    re: new RegExp(String.raw`(--?(?:password|passwd|token|api-key|secret)[= ])${NOT_PLACEHOLDER}([^\s"']{4,})`, 'gi'),
    replace: (_m, pre) => `${pre}${P('secret-value')}`,
  },
];

/** The redaction types, in rule order (for docs and `doctor`). */
export const REDACTION_TYPES: readonly string[] = [...new Set(RULES.map((r) => r.type))];

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
  return { text: out, redactions };
}
