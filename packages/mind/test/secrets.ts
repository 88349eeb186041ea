/**
 * Real-looking secret values (synthetic; assembled from parts so that repository secret scanners
 * do not flag this file). Each must never reach a .mind file or a notes file.
 */
const a = (n: number, alphabet = 'A7bC9dE2fG4hJ6kL8mN3pQ5rS1tU0vWxYz') => {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[(i * 7 + n) % alphabet.length];
  return s;
};
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface SecretCase {
  name: string;
  type: string;
  /** The text as a user/agent would write it. */
  text: string;
  /** The secret substring that must not survive. */
  secret: string;
}

const aws = 'AKIA' + a(16, UP);
const gh = 'ghp_' + a(36);
const ghPat = 'github_pat_' + a(22) + '_' + a(59);
const gl = 'glpat-' + a(20);
const oai = 'sk-proj-' + a(48);
const oaiLegacy = 'sk-' + a(48);
const ant = 'sk-ant-api03-' + a(93) + 'AA';
const slack = 'xoxb-' + '123456789012-1234567890123-' + a(24);
const slackHook = 'https://hooks.slack.com/services/' + 'T' + a(8, UP) + '/B' + a(8, UP) + '/' + a(24);
const stripe = 'sk_' + 'live_' + a(24);
const stripeR = 'rk_' + 'test_' + a(24);
const jwt = 'eyJ' + 'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' + '.' + 'eyJ' + 'zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ' + '.' + a(43);
const bearer = a(40);
const pemBody = a(64) + '\n' + a(64) + '\n' + a(32);
const envVal = 'hunter2-' + a(12);
const pgPass = 'S3cr3t-' + a(10);
const googleKey = 'AIza' + a(35);
const npmTok = 'npm_' + a(36);
// Twilio API key SIDs: `SK` + 32 hex; SendGrid keys whose base64url parts hold `-` or `_` (the 22-character id, the 43-character secret)
const twilio = 'SK' + a(32, '0123456789abcdef');
const sgDashId = 'SG.' + a(9) + '-' + a(12) + '.' + a(43);
const sgDashes = 'SG.' + a(22) + '.' + a(14) + '-' + a(9) + '_' + a(8) + '-' + a(9);

export const SECRET_CASES: SecretCase[] = [
  { name: 'AWS access key id', type: 'aws-access-key', text: `aws creds: ${aws} in us-east-1`, secret: aws },
  { name: 'GitHub classic token', type: 'github-token', text: `export GH=${gh}`, secret: gh },
  { name: 'GitHub fine-grained PAT', type: 'github-token', text: `token ${ghPat} works`, secret: ghPat },
  { name: 'GitLab PAT', type: 'gitlab-token', text: `use ${gl} for the registry`, secret: gl },
  { name: 'OpenAI project key', type: 'openai-key', text: `OPENAI key is ${oai}`, secret: oai },
  { name: 'OpenAI legacy key', type: 'openai-key', text: `key=${oaiLegacy}`, secret: oaiLegacy },
  { name: 'Anthropic key', type: 'anthropic-key', text: `claude uses ${ant} now`, secret: ant },
  { name: 'Slack bot token', type: 'slack-token', text: `slack: ${slack}`, secret: slack },
  { name: 'Slack webhook', type: 'slack-webhook', text: `post to ${slackHook}`, secret: slackHook },
  { name: 'Stripe live secret', type: 'stripe-key', text: `stripe ${stripe}`, secret: stripe },
  { name: 'Stripe restricted test key', type: 'stripe-key', text: `restricted ${stripeR}`, secret: stripeR },
  { name: 'JWT', type: 'jwt', text: `cookie session=${jwt}; path=/`, secret: jwt },
  { name: 'Authorization Bearer header', type: 'bearer-token', text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`, secret: bearer },
  {
    name: 'PEM private key',
    type: 'pem-private-key',
    text: `key:\n-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----\nend`,
    secret: pemBody.split('\n')[0]!,
  },
  { name: '.env secret line', type: 'secret-value', text: `DB_HOST=localhost\nDB_PASSWORD=${envVal}\nPORT=5432`, secret: envVal },
  { name: 'export API_KEY line', type: 'secret-value', text: `export MY_SERVICE_API_KEY="${envVal}x"`, secret: `${envVal}x` },
  { name: 'YAML client_secret', type: 'secret-value', text: `oauth:\n  client_secret: ${envVal}y\n  client_id: abc`, secret: `${envVal}y` },
  { name: 'postgres URL password', type: 'password', text: `DATABASE_URL is postgres://app:${pgPass}@db.internal:5432/app`, secret: pgPass },
  { name: 'mongodb+srv password', type: 'password', text: `mongodb+srv://admin:${pgPass}z@cluster0.example.net/test`, secret: `${pgPass}z` },
  { name: 'Google API key', type: 'google-api-key', text: `maps key ${googleKey}`, secret: googleKey },
  { name: 'npm token', type: 'npm-token', text: `//registry.npmjs.org/:_authToken=${npmTok}`, secret: npmTok },
  { name: 'JSON api_key', type: 'secret-value', text: `{"api_key": "${envVal}q", "region": "eu"}`, secret: `${envVal}q` },
  { name: 'Twilio API key', type: 'twilio-api-key', text: `the SMS worker signs in with Twilio API key ${twilio}, its secret is in the vault`, secret: twilio },
  { name: 'SendGrid key with - in its id', type: 'sendgrid', text: `mail goes out via ${sgDashId} (rotated monthly)`, secret: sgDashId.slice(3) },
  { name: 'SendGrid key with - and _ in its secret', type: 'sendgrid', text: `sendgrid: "${sgDashes}"`, secret: sgDashes.slice(26) },
];

/** A case for one rule of the maintained preset (`@secretlint/secretlint-rule-preset-recommend`). */
export interface PresetCase extends SecretCase {
  /** The preset rule id that must report this text on its own. */
  rule: string;
}

const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = 'QwErTyUiOpAsDfGhJkLzXcVbNm';
const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
// a DER SEQUENCE starts with 0x30 0x82, which base64-encodes to "MII"; the rest is generated
const derBody = 'MIIE' + a(156, B64);
const pem = (label: string) => `-----BEGIN ${label}PRIVATE KEY-----\n${derBody.slice(0, 64)}\n${derBody.slice(64, 128)}\n${derBody.slice(128)}\n-----END ${label}PRIVATE KEY-----`;
// 1Password service-account tokens are `ops_` + base64 of a JSON object (padded so the encoding ends in "fQ")
const opsJson = (() => {
  let j = JSON.stringify({ email: `${a(13, 'abcdefghijklmnopqrstuvwxyz0123456789')}@1passwordserviceaccounts.lcl`, secretKey: `A3-${a(6, UP)}-${a(6, UP)}-${a(5, UP)}`, srpX: a(64, HEX) });
  while (j.length % 3 !== 1) j = j.replace('{', '{ ');
  return j;
})();
const presetSecrets = {
  awsId: 'AKIA' + a(16, UP).replace(/[2-7]/g, 'Q'),
  awsSecret: a(40, B64 + '/+'),
  gcpKey: derBody,
  npm: 'npm_' + a(36, B64),
  basicPw: 'Vq7-' + a(12, B64),
  slack: 'xoxp-' + '2918273645-' + '8172635490-' + a(32, B64),
  sendgrid: 'SG.' + a(22, B64) + '.' + a(43, B64),
  shopify: 'shpat_' + a(32, HEX),
  githubFine: 'github_pat_' + a(82, B64 + '_'),
  gitlab: 'glpat-' + a(26, B64),
  grafana: 'glsa_' + a(32, B64) + '_' + a(8, HEX),
  openai: 'sk-proj-' + a(74, B64) + 'T3BlbkFJ' + a(74, B64),
  anthropic: 'sk-ant-api03-' + a(95, B64) + 'AA',
  groq: 'gsk_' + a(52, B64),
  huggingface: 'hf_' + a(34, LETTERS),
  linear: 'lin_api_' + a(40, B64),
  notion: 'ntn_' + a(11, '0123456789') + a(35, B64),
  onePassword: 'ops_' + base64(opsJson),
  mysqlPw: 'pW8' + a(14, B64),
  vault: 'hvs.' + a(95, B64),
  vercel: 'vcp_' + a(24, B64),
  databricks: 'dapi' + a(32, HEX),
  docker: 'dckr_pat_' + a(27, B64),
  figma: 'figd_' + a(43, B64),
};

const R = (id: string) => `@secretlint/secretlint-rule-${id}`;
export const PRESET_CASES: PresetCase[] = [
  { rule: R('aws'), name: 'AWS access key id (preset)', type: 'aws', text: `id ${presetSecrets.awsId}`, secret: presetSecrets.awsId },
  { rule: R('aws'), name: 'AWS secret access key', type: 'aws', text: `aws_secret_access_key = ${presetSecrets.awsSecret}`, secret: presetSecrets.awsSecret },
  {
    rule: R('gcp'),
    name: 'GCP service-account JSON',
    type: 'gcp',
    // private_key_id names the key (not a secret; kept): its alphabet is reversed so that it cannot
    // contain the env dump's generated hex by accident
    text: JSON.stringify({ type: 'service_account', project_id: 'demo-482', private_key_id: a(40, [...HEX].reverse().join('')), private_key: pem('') + '\n', client_email: 'ci@demo-482.iam.gserviceaccount.com' }, null, 2),
    secret: derBody.slice(0, 64),
  },
  { rule: R('privatekey'), name: 'PEM private key (preset)', type: 'privatekey', text: `deploy key:\n${pem('OPENSSH ')}\n`, secret: derBody.slice(64, 128) },
  { rule: R('npm'), name: 'npm access token (preset)', type: 'npm', text: `NPM publish token ${presetSecrets.npm} expires Friday`, secret: presetSecrets.npm },
  { rule: R('basicauth'), name: 'basic auth in a URL', type: 'basicauth', text: `git remote https://deploy:${presetSecrets.basicPw}@git.internal.io/app.git`, secret: presetSecrets.basicPw },
  { rule: R('slack'), name: 'Slack user token', type: 'slack', text: `slack user ${presetSecrets.slack}`, secret: presetSecrets.slack },
  { rule: R('sendgrid'), name: 'SendGrid API key', type: 'sendgrid', text: `mail via ${presetSecrets.sendgrid}`, secret: presetSecrets.sendgrid },
  { rule: R('shopify'), name: 'Shopify access token', type: 'shopify', text: `shop admin ${presetSecrets.shopify}`, secret: presetSecrets.shopify },
  { rule: R('github'), name: 'GitHub fine-grained token (preset)', type: 'github', text: `gh auth ${presetSecrets.githubFine}`, secret: presetSecrets.githubFine },
  { rule: R('gitlab'), name: 'GitLab token (preset)', type: 'gitlab', text: `registry ${presetSecrets.gitlab}`, secret: presetSecrets.gitlab },
  { rule: R('grafana'), name: 'Grafana service-account token', type: 'grafana', text: `grafana ${presetSecrets.grafana}`, secret: presetSecrets.grafana },
  { rule: R('openai'), name: 'OpenAI project key (preset)', type: 'openai', text: `openai ${presetSecrets.openai}`, secret: presetSecrets.openai },
  { rule: R('anthropic'), name: 'Anthropic key (preset)', type: 'anthropic', text: `claude ${presetSecrets.anthropic}`, secret: presetSecrets.anthropic },
  { rule: R('groq'), name: 'Groq API key', type: 'groq', text: `groq ${presetSecrets.groq}`, secret: presetSecrets.groq },
  { rule: R('huggingface'), name: 'Hugging Face token', type: 'huggingface', text: `hub ${presetSecrets.huggingface}`, secret: presetSecrets.huggingface },
  { rule: R('linear'), name: 'Linear API key', type: 'linear', text: `linear ${presetSecrets.linear}`, secret: presetSecrets.linear },
  { rule: R('notion'), name: 'Notion integration token', type: 'notion', text: `notion ${presetSecrets.notion}`, secret: presetSecrets.notion },
  { rule: R('1password'), name: '1Password service-account token', type: '1password', text: `op ${presetSecrets.onePassword} done`, secret: presetSecrets.onePassword.slice(4, 60) },
  {
    rule: R('database-connection-string'),
    name: 'MySQL connection string',
    type: 'password',
    text: `DSN mysql://shop:${presetSecrets.mysqlPw}@db.internal:3306/shop`,
    secret: presetSecrets.mysqlPw,
  },
  { rule: R('hashicorp-vault'), name: 'Vault service token', type: 'hashicorp-vault', text: `vault ${presetSecrets.vault}`, secret: presetSecrets.vault },
  { rule: R('vercel'), name: 'Vercel token', type: 'vercel', text: `vercel ${presetSecrets.vercel}`, secret: presetSecrets.vercel },
  { rule: R('databricks'), name: 'Databricks token', type: 'databricks', text: `databricks ${presetSecrets.databricks}`, secret: presetSecrets.databricks },
  { rule: R('docker'), name: 'Docker Hub PAT', type: 'docker', text: `docker login -p ${presetSecrets.docker}`, secret: presetSecrets.docker },
  { rule: R('figma'), name: 'Figma token', type: 'figma', text: `figma ${presetSecrets.figma}`, secret: presetSecrets.figma },
];

const envSecrets = { sentry: a(32, HEX), datadog: a(40, B64), custom: 'q' + a(27, B64 + '_-') };
/** An environment dump (as `env` prints it) with three generated secrets under names no keyword rule knows. */
export const ENV_DUMP_CASE: SecretCase & { secrets: string[] } = {
  name: 'env dump',
  type: 'high-entropy',
  text: [
    'SHELL=/bin/bash',
    'NVM_DIR=/home/dev/.nvm',
    'LANG=en_US.UTF-8',
    'TERM=xterm-256color',
    'NODE_ENV=production',
    'PATH=/home/dev/.nvm/versions/node/v20.11.1/bin:/usr/local/bin:/usr/bin:/bin',
    `BUILD_FINGERPRINT=${envSecrets.sentry}`,
    `DD_APP=${envSecrets.datadog}`,
    `export ACME_CLIENT="${envSecrets.custom}"`,
    'PNPM_VERSION=8.15.4-canary.20240301',
    'HOSTNAME=buildbox-eu-west-1',
    'XDG_SESSION_TYPE=tty',
  ].join('\n'),
  secret: envSecrets.sentry,
  secrets: Object.values(envSecrets),
};

/** Every generated value that must never reach disk: the context rules', the preset's and the env dump's. */
export const ALL_SECRET_TEXTS: Array<{ name: string; text: string; secrets: string[] }> = [
  ...SECRET_CASES.map((c) => ({ name: c.name, text: c.text, secrets: [c.secret] })),
  ...PRESET_CASES.map((c) => ({ name: c.name, text: c.text, secrets: [c.secret] })),
  { name: ENV_DUMP_CASE.name, text: ENV_DUMP_CASE.text, secrets: ENV_DUMP_CASE.secrets },
];
