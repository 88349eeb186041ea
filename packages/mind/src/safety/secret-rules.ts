/**
 * The context rules of secret redaction (layer 1 of `redactSecrets`, see redact.ts): vendor formats
 * the maintained preset does not cover, and rules that keep the context around a secret (a variable
 * name, a header, a scheme, a user) while replacing only the secret.
 *
 * Formats follow the providers' documentation and the rule set of gitleaks' default configuration
 * (`config/gitleaks.toml`, v8, MIT), cited by rule id where a rule here carries the same fact; so do
 * the allowlists for values that are not secrets (gitleaks' global allowlist: repeated-character and
 * `$VAR`/`${VAR}`/`{{ ... }}` placeholders; its `generic-api-key` allowlist: a value of only letters,
 * `_`, `.` and `-` is a word, not a key; its `aws-access-token` allowlist: ids ending in `EXAMPLE`).
 * Written here as data, in-process: gitleaks ships as a Go binary with no npm package.
 */

/** One redaction rule: a regular expression, and how a match is replaced. */
export interface SecretRule {
  /** The placeholder type, `[REDACTED:<type>]`. */
  type: string;
  re: RegExp;
  /**
   * Replacement, receiving the match and its capture groups; returning the match unchanged means
   * "not a secret" (nothing is recorded). Default: the whole match becomes the placeholder, unless
   * {@link isPlaceholderToken} says the match is a documentation placeholder.
   */
  replace?: (m: string, ...groups: string[]) => string;
}

/** The placeholder written in place of a secret of `type`. */
export const placeholder = (type: string): string => `[REDACTED:${type}]`;

// A value that is already a placeholder (or a template like ${VAR}) is not a secret.
const NOT_PLACEHOLDER = String.raw`(?!\[REDACTED:)(?!\$\{)(?!<)`;

const SECRET_KEY_WORDS = String.raw`(?:SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|AUTH[_-]?KEY|SESSION[_-]?KEY|SIGNING[_-]?KEY|ENCRYPTION[_-]?KEY|ACCOUNT[_-]?KEY|SHARED[_-]?ACCESS[_-]?KEY|DSN)`;

/**
 * Key names that hold something other than a secret although they contain a secret word: counters
 * and limits (`max_tokens`, `TOKENS_PER_MINUTE`, `token_count`, `password_min_length`), a tokenizer,
 * and a key naming where or how the secret is found rather than the secret itself (`apiKeyEnv`,
 * `private_key_path`, `TOKEN_FILE`, `token_type`, `SESSION_TOKEN_TTL_MS`, `SECRET_NAME`); gitleaks'
 * `generic-api-key` allowlist excludes the same families (`key_file`, `token_url`, `secret_name`, ...).
 */
const NOT_SECRET_KEY =
  /tokens|tokeniz|token_?(?:count|limit|budget|usage)|max_?token|password_?(?:policy|length|min|max)|(?:path|file|dir|url|uri|endpoint|env|name|type|id|ttl|ms|seconds|timeout|expiry|expires|length|size|header|field|kind|mode|count|limit|policy|ref)["']?$/i;

// Code around a secret-sounding name is not a secret: `apiKey: string`, `token = opts.token`,
// `sessionKey = str(p.sessionKey)` (calls and index expressions are excluded by the rule itself),
// `API_KEY: DEFAULT_API_KEY`, a regular expression literal `TOKEN_RE = /x/g`, `password = var.db_password`.
const CODE_REFERENCE = /^(?:(?:string|number|boolean|null|undefined|true|false|any|unknown|never|void)\??|[a-z_$][\w$]*(?:\??\.[\w$]+)+\??|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[{[`].*|\/.+\/[dgimsuy]*)$/;

/**
 * Whether `value` is a documentation or template placeholder rather than a secret: one repeated
 * character (`xxxx`, `****`, `....`), `<your key>`, `[PASSWORD]`, `$VAR`, `${VAR}`, `{{ .Values.x }}`,
 * `%VAR%`, a value cut with an ellipsis (`sk_live_...`), `your-api-key-here` wording, or a stand-in
 * word (`password`, `secret`, `value`, `changeme`, `test`; gitleaks' global and `curl-auth-user`
 * allowlists cover most of these).
 */
function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (/^(.)\1*$/.test(v)) return true;
  if (/^<[^>]*>$|^\[[^\]]*\]$|^\$\w+$|^\$\{[^}]*\}$|^\$?\{\{[^}]*\}\}$|^%\w+%$/.test(v)) return true;
  if (/(?:\.\.\.|…)$/.test(v)) return true;
  if (/^(?:your|my)[-_ ]?.*[-_ ]?(?:here|key|token|secret|password)$/i.test(v)) return true;
  return /^(?:value|secret|pass|password|pwd|token|test|changeme|changeit|placeholder|redacted|none|null|example|foo|bar|foobar)$/i.test(v);
}

/**
 * Whether a vendor-format match is a placeholder: the part after its prefix is one or two distinct
 * characters (`ghp_xxxxxxxx…`), or it ends in `EXAMPLE` as AWS's documented example ids do
 * (gitleaks' `aws-access-token` allowlist).
 */
export function isPlaceholderToken(match: string): boolean {
  if (/EXAMPLE(?:KEY)?$/.test(match)) return true;
  const body = match.replace(/^[A-Za-z]{2,12}[_-](?:[A-Za-z0-9]{1,8}[_-])?/, '');
  return body.length > 0 && new Set(body).size <= 2;
}

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

/** Shannon entropy of `s`, in bits per character. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) h -= (c / n) * Math.log2(c / n);
  return h;
}

// A value under a token/key/credential name must look generated to be a secret: it holds a digit and
// is not only a number (a port, a count, a duration), or it is long and varied (Shannon entropy >= 3.5
// bits per character over >= 16 characters) and not word-like: short values of only letters, `_`,
// `.` and `-` are words (gitleaks' `generic-api-key` allowlist): `credentials: "same-origin"`.
// Under a password/passphrase/secret name anything of 4+ characters counts, since people pick words
// as passwords. Paths are not secrets under any name but a password's.
function looksGenerated(value: string, key: string): boolean {
  if (isPlaceholder(value)) return false;
  const v = value.replace(/[)\]}>.]+$/, '');
  if (/pass|secret/i.test(key)) return v.length >= 4;
  if (v.length < 8 || /^\d+$/.test(v) || /^(?:~|\.{1,2})?\//.test(v)) return false;
  if (/\d/.test(v)) return true;
  return v.length >= 16 && shannonEntropy(v) >= 3.5 && !isWordlike(v);
}

// Letters, `_`, `.` and `-` only, mostly in lower-case runs of 4+: words and identifiers (`same-origin`,
// `loopbackKeyName`); a random mixed-case string (`QwErTyUiOp...`, a Hugging Face token's body) has few such runs.
function isWordlike(v: string): boolean {
  if (!/^[A-Za-z_.-]+$/.test(v)) return false;
  const inRuns = (v.match(/[a-z]{4,}/g) ?? []).reduce((n, w) => n + w.length, 0);
  return inRuns / v.length >= 0.3;
}

/** Whether `value` assigned to `key` is a secret (the shared judgement of the key=value rules). */
function isSecretAssignment(key: string, value: string, quoted: boolean): boolean {
  if (NOT_SECRET_KEY.test(key)) return false;
  if (quoted ? isNotSecretText(value, key) : isCodeReference(value)) return false;
  return looksGenerated(value, key);
}

// A password in a URL or a command, unless it is a placeholder or a variable (gitleaks' `curl-auth-user`
// allowlist: `user:pass`, `test:test`, `$1:$2`, `<user:password>`, `[PASSWORD]`, `${{ secrets.X }}`).
function isCommandPassword(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  return v.length >= 3 && !isPlaceholder(v) && !/^\$/.test(v);
}

const P = placeholder;

/** The context rules, applied in this order. */
export const SECRET_RULES: SecretRule[] = [
  {
    // PEM (RFC 7468) and OpenPGP armored (RFC 4880 §6.2: `PGP PRIVATE KEY BLOCK`) private keys,
    // terminated or cut off by the paste
    type: 'pem-private-key',
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  { type: 'aws-access-key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  { type: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { type: 'gitlab-token', re: /\bgl(?:pat|dt|rt|ptt|cbt|imt|oas|ft|soat|wt|agent)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2,}(?:\.[0-9a-z]+)?)?/g },
  { type: 'anthropic-key', re: /\bsk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,}/g },
  { type: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|None-|or-v1-)?[A-Za-z0-9_-]{20,}/g },
  { type: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g },
  { type: 'slack-token', re: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g },
  { type: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}\b/g },
  { type: 'stripe-webhook-secret', re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  { type: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  // Google OAuth 2.0 access tokens start `ya29.`; client secrets `GOCSPX-`
  { type: 'google-oauth-token', re: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{24,})/g },
  { type: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  // gitleaks `digitalocean-pat`, `digitalocean-access-token`, `digitalocean-refresh-token`
  { type: 'digitalocean-token', re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  // gitleaks `mailgun-private-api-token`
  { type: 'mailgun-key', re: /\bkey-[a-f0-9]{32}\b/g },
  // gitleaks `twilio-api-key`: Twilio API key SIDs, `SK` + 32 hex (Twilio docs, "API keys")
  { type: 'twilio-api-key', re: /\bSK[0-9a-fA-F]{32}\b/g },
  // SendGrid API keys: `SG.`, a 22-character key id, `.`, a 43-character secret, both base64url (`-` and `_`
  // included; gitleaks `sendgrid-api-token`). secretlint's sendgrid rule (`SG\.\w+\.\w+[-_]?\w+`) misses an id
  // holding `-` and a secret holding more than one `-`; its type is kept, so both rules write the same placeholder.
  { type: 'sendgrid', re: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  // gitleaks `perplexity-api-key`; xAI keys `xai-` + 80
  { type: 'llm-provider-key', re: /\b(?:pplx-[A-Za-z0-9]{48}|xai-[A-Za-z0-9]{80})\b/g },
  // gitleaks `telegram-bot-api-token`: the bot id, a colon, `A` and 34 more
  { type: 'telegram-bot-token', re: /(?<![0-9])[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g },
  // age (age-encryption.org/v1) identities; gitleaks `age-secret-key` (which narrows the body to bech32)
  { type: 'age-secret-key', re: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  { type: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    type: 'bearer-token',
    re: new RegExp(String.raw`(\bAuthorization\s*[:=]\s*["']?(?:Bearer|Token|Basic)\s+)${NOT_PLACEHOLDER}([^\s"',;]+)`, 'gi'),
    replace: (m, pre, value) => (isPlaceholder(value!) ? m : `${pre}${P('bearer-token')}`),
  },
  {
    type: 'bearer-token',
    re: new RegExp(String.raw`(\bBearer\s+)${NOT_PLACEHOLDER}([A-Za-z0-9._~+/=-]{16,})`, 'g'),
    replace: (m, pre, value) => (isPlaceholder(value!) ? m : `${pre}${P('bearer-token')}`),
  },
  {
    // API-key headers (gitleaks `curl-auth-header`: `X-API-Key:`, `Api-Token:`, Azure's `api-key:`, Anthropic's `x-api-key:`)
    type: 'api-key-header',
    re: new RegExp(String.raw`((?:^|(?<=[\s"'{,]))(?:X-(?:[A-Za-z]+-)?)?(?:Api-?)?(?:Key|Token)\s*:\s*)${NOT_PLACEHOLDER}([A-Za-z0-9_=~@.+/-]{16,})`, 'gi'),
    replace: (m, pre, value) => (isPlaceholder(value!) || !looksGenerated(value!, 'key') ? m : `${pre}${P('api-key-header')}`),
  },
  {
    // scheme://user:password@host  (postgres, mysql, mongodb+srv, redis with an empty user, amqp, https...)
    type: 'password',
    re: new RegExp(String.raw`(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)${NOT_PLACEHOLDER}([^\s@/]+)(@)`, 'g'),
    replace: (m, pre, pw, at) => (isCommandPassword(pw!) ? `${pre}${P('password')}${at}` : m),
  },
  {
    // a password or token in a URL query (JDBC `?user=app&password=...`, Azure SAS `&sig=...`): ends at `&`
    type: 'password',
    re: new RegExp(String.raw`([?&](?:password|passwd|pwd|access_token|api_?key|client_secret|sig)=)${NOT_PLACEHOLDER}([^&#\s"']+)`, 'gi'),
    replace: (m, pre, value) => (isPlaceholder(value!) ? m : `${pre}${P('password')}`),
  },
  {
    // .netrc (GNU inetutils `netrc` format): `machine HOST login USER password SECRET`, on one line or several
    type: 'password',
    re: /(\bmachine[ \t]+\S+(?:\s+login[ \t]+\S+)?\s+password[ \t]+)(\S+)/g,
    replace: (m, pre, value) => (isPlaceholder(value!) ? m : `${pre}${P('password')}`),
  },
  {
    // `curl -u user:password` / `--user` (gitleaks `curl-auth-user`)
    type: 'password',
    re: /(\bcurl\b[^\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']+:)([^\s"']+)/g,
    replace: (m, pre, value) => (isCommandPassword(value!) ? `${pre}${P('password')}` : m),
  },
  {
    // `mysql -pSECRET` (the password attached to -p; `-p` alone prompts), `sshpass -p SECRET`
    type: 'password',
    re: /(\b(?:mysql(?:dump|admin)?\b[^\n]*?[ \t]-p|sshpass[ \t]+-p[ \t]*)["']?)([^\s"']+)/g,
    replace: (m, pre, value) => (isCommandPassword(value!) ? `${pre}${P('password')}` : m),
  },
  {
    // Docker's config.json `"auth": "<base64 of user:password>"` (docker login's credential store), or
    // any generated value under a JSON `"auth"` key
    type: 'password',
    re: /("auth"\s*:\s*")([A-Za-z0-9+/]{8,}={0,2})(")/g,
    replace: (m, pre, value, post) =>
      /^[^:\s]+:\S+$/.test(Buffer.from(value!, 'base64').toString('latin1')) || looksGenerated(value!, 'token') ? `${pre}${P('password')}${post}` : m,
  },
  {
    // session cookies (RFC 6265 `Cookie:` / `Set-Cookie:` headers): the value of a cookie whose name
    // says session, sid, token, auth or jwt, when it looks generated
    type: 'session-cookie',
    re: /(\b(?:Set-)?Cookie:[ \t]*)([^\n]+)/gi,
    replace: (m, pre, pairs) => {
      const out = pairs!.replace(/(^|;\s*)([\w.-]*(?:sess|sid|token|auth|jwt)[\w.-]*=)([^;\s]+)/gi, (pm, lead: string, name: string, value: string) =>
        value.startsWith('[REDACTED:') || !looksGenerated(value, 'token') ? pm : `${lead}${name}${P('session-cookie')}`,
      );
      return `${pre}${out}`;
    },
  },
  {
    // .npmrc credentials (npm docs, "npmrc": `_authToken`, `_auth`, `_password` under a registry prefix)
    type: 'npm-token',
    re: new RegExp(String.raw`(:_(?:authToken|auth|password)[ \t]*=[ \t]*)${NOT_PLACEHOLDER}([^\s"']+)`, 'g'),
    replace: (m, pre, value) => (isPlaceholder(value!) ? m : `${pre}${P('npm-token')}`),
  },
  {
    // .env / shell / YAML / INI / TOML style:  [export] SOME_SECRET_KEY=value   api_key: "value"   run DB_PASSWORD=x npm start
    // (a bare value followed by `(` or `[` is a call or an index: `process.env["DB_PASSWORD"]`)
    type: 'secret-value',
    re: new RegExp(
      String.raw`((?:^|(?<=[\s;&|(,{]))(?:export[ \t]+)?["']?([A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*)["']?[ \t]*[=:][ \t]*)(?:"${NOT_PLACEHOLDER}([^"\n]+)"|'${NOT_PLACEHOLDER}([^'\n]+)'|${NOT_PLACEHOLDER}(?![^\s"'#,;]*[([])([^\s"'#,;]+))`,
      'gim',
    ),
    replace: (m, pre, key, dq, sq, bare) => {
      const quoted = !bare;
      if (!isSecretAssignment(key ?? '', bare || dq || sq || '', quoted)) return m;
      const q = dq ? '"' : sq ? "'" : '';
      return `${pre}${q}${P('secret-value')}${q}`;
    },
  },
  {
    // JSON style: "client_secret": "value"
    type: 'secret-value',
    re: new RegExp(String.raw`("([A-Za-z0-9_.-]*${SECRET_KEY_WORDS}[A-Za-z0-9_.-]*)"\s*:\s*")${NOT_PLACEHOLDER}([^"\n]{4,})(")`, 'gi'),
    replace: (m, pre, key, value, post) => (isSecretAssignment(key!, value!, true) ? `${pre}${P('secret-value')}${post}` : m),
  },
  {
    // --password=value / --token value on command lines
    type: 'secret-value',
    re: new RegExp(String.raw`((?:^|(?<=[\s"'=]))--?(?:password|passwd|token|api-key|secret)[= ])${NOT_PLACEHOLDER}([^\s"']{4,})`, 'gi'),
    replace: (m, pre, value) => (isPlaceholder(value!) || /^-/.test(value!) ? m : `${pre}${P('secret-value')}`),
  },
];
