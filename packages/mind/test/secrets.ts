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
];
