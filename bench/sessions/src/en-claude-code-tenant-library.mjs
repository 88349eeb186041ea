// English, Claude Code JSONL: a side task first, /init, a cooldown rule changed twice, a daily
// limit the user rules out after the agent built it, a correction the agent admits (borrower_id),
// tests failing then passing, two commits, an Explore Task with findings and an interrupted Task,
// a shell-init error in every Bash result, three dumps beside a large useful research result,
// `cd` into the project, AGENTS.md printed beside .env.example.
import { Script, pathList, stringsDump, configDump } from '../build/script.mjs';

const HOME = '/Users/tom';
const P = `${HOME}/tmp/tenant-library`;
const ZSH = `${HOME}/.zshrc:14: command not found: pyenv`;
const sh = (out) => `${ZSH}\n${out}`;

export function build() {
  const s = new Script({ id: 'en-claude-code-tenant-library', seed: 11, cwd: HOME, start: '2026-11-24T09:12:03.000Z', model: 'claude-opus-4-5-20251101' });

  s.user('make a python script i can run at the end of this chat session that copies the newest session .jsonl from ~/.claude/projects into ~/chat-archive with the date in the file name');
  s.say("I'll write `~/bin/archive_chat.py`: it finds the most recently modified `.jsonl` under `~/.claude/projects`, and copies it to `~/chat-archive/YYYY-MM-DD_<name>.jsonl`.");
  s.tool('Write', { file_path: `${HOME}/bin/archive_chat.py`, content: ARCHIVE_PY }, `File created successfully at: ${HOME}/bin/archive_chat.py`, { extra: { type: 'create', filePath: `${HOME}/bin/archive_chat.py`, content: ARCHIVE_PY } });
  s.tool('Bash', { command: 'chmod +x ~/bin/archive_chat.py && ~/bin/archive_chat.py --dry-run', description: 'Try the archive script without copying' }, sh(`would copy ${HOME}/.claude/projects/-Users-tom/5d1c0a7e-2b4f-4c1e-9d0a-77e1f3a2b9c4.jsonl -> ${HOME}/chat-archive/2026-11-24_5d1c0a7e-2b4f-4c1e-9d0a-77e1f3a2b9c4.jsonl`));
  s.say('Done: run `~/bin/archive_chat.py` at the end of the session (`--dry-run` shows what it would copy).');

  s.user("thanks. now the actual work: cd into tmp/tenant-library. it's the book-lending app for the tenants of our building (express + sqlite). people spam the 'Request this book' button, so I want a cooldown on it: the cooldown is 10 seconds, enforced on the server, with a countdown on the button.");
  s.tool('Bash', { command: 'cd tmp/tenant-library && git status --short && git log --oneline -5', description: 'Enter the project and look at its state' }, sh('a3f1e02 Show due dates on the loans page\n9b7c4d1 Add waitlist for reserved books\n51e0c8a Tenant login with magic links\n0d4e2f7 Book catalogue and search\n7c1a9e3 Initial express + sqlite skeleton'));
  s.chdir(P);
  s.raw('claude-code', { type: 'user', message: { role: 'user', content: '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>' } });
  s.raw('claude-code', { type: 'user', isMeta: true, message: { role: 'user', content: INIT_PROMPT } });
  s.tools([{ name: 'Task', input: { description: 'Explore tenant-library structure', prompt: 'Explore this express + sqlite app: routes, the book request flow end to end (client button to DB row), how tests run, and any existing rate limiting. Report file paths and line numbers.', subagent_type: 'Explore' }, output: exploreReport(), blocks: [{ type: 'text', text: exploreReport() }, { type: 'text', text: 'agentId: a7c41e2 (for resuming to continue this agent\'s work if needed)' }], extra: { status: 'completed', agentId: 'a7c41e2', totalDurationMs: 41877, totalTokens: 23110, totalToolUseCount: 21 } }], "I'll explore the codebase first, then write CLAUDE.md.");
  s.tool('Bash', { command: 'cat .env.example AGENTS.md', description: 'Read the env template and the agent notes' }, sh(ENV_AND_AGENTS));
  s.tool('Write', { file_path: `${P}/CLAUDE.md`, content: CLAUDE_MD }, `File created successfully at: ${P}/CLAUDE.md`);
  s.say('Created `CLAUDE.md` (commands, architecture, the request flow). Now the cooldown.');

  s.tools([{ name: 'TodoWrite', input: { todos: todos(['pending', 'pending', 'pending', 'pending', 'pending']) }, output: TODO_OK }]);
  s.tool('Read', { file_path: `${P}/src/routes/requests.ts` }, numbered(REQUESTS_TS), { extra: { type: 'text', file: { filePath: `${P}/src/routes/requests.ts`, numLines: 38 } } });
  s.say("The requests table has no tenant column, so I'll add a `tenant_id` column to `requests` and store `last_request_at` per tenant.");
  s.user("no that's wrong, the column is there, it's called borrower_id (schema.sql line 31). don't add a column.");
  s.tool('Bash', { command: "sed -n '25,40p' src/db/schema.sql", description: 'Check the requests table definition' }, sh(SCHEMA_EXCERPT));
  s.say("You're right: `requests.borrower_id` references `tenants(id)` (schema.sql:31). I won't add a column; the cooldown reads the newest `requests.created_at` for the borrower.");
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['in_progress', 'pending', 'pending', 'pending', 'pending']) }, output: TODO_OK }]);
  s.tool('Write', { file_path: `${P}/src/cooldown.ts`, content: COOLDOWN_V1 }, `File created successfully at: ${P}/src/cooldown.ts`);
  s.tool('Edit', { file_path: `${P}/src/routes/requests.ts`, old_string: "router.post('/books/:id/request', requireTenant, (req, res) => {", new_string: "router.post('/books/:id/request', requireTenant, (req, res) => {\n  const wait = cooldownLeft(db, req.tenant.id, Date.now());\n  if (wait > 0) return res.status(429).json({ error: 'cooldown', retryAfterMs: wait });\n  if (requestsToday(db, req.tenant.id) >= DAILY_LIMIT) return res.status(429).json({ error: 'daily-limit' });" }, `The file ${P}/src/routes/requests.ts has been updated successfully.`);
  s.tool('Edit', { file_path: `${P}/public/app.js`, old_string: "button.addEventListener('click', () => requestBook(id));", new_string: "button.addEventListener('click', () => requestBook(id).then(startCountdown));" }, `The file ${P}/public/app.js has been updated successfully.`);
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['completed', 'completed', 'in_progress', 'pending', 'pending']) }, output: TODO_OK }]);
  s.tool('Write', { file_path: `${P}/test/cooldown.test.ts`, content: COOLDOWN_TEST_V1 }, `File created successfully at: ${P}/test/cooldown.test.ts`);
  s.tool('Bash', { command: 'npx vitest run 2>&1 | tail -25', description: 'Run the test suite' }, sh(VITEST_FAIL), { error: true });
  s.say('Two failures: `node_modules/better-sqlite3` was built for another Node version, and the cooldown test reads the wrong column. Checking the native module first.');
  s.tool('Bash', { command: 'strings node_modules/better-sqlite3/build/Release/better_sqlite3.node | head -400', description: 'Look for the ABI version in the native module' }, sh(stringsDump(5, 380, ['NODE_MODULE_VERSION 115', 'node_register_module_v115'])));
  s.tool('Bash', { command: 'npm config ls -l 2>/dev/null | head -300', description: 'Show the npm configuration' }, sh(configDump(6, 260, '', ['; "default" config from default values', 'node-version = "v22.11.0"', 'prefix = "/Users/tom/.npm-global"'])));
  s.tool('Bash', { command: 'npm rebuild better-sqlite3 2>&1 | tail -3', description: 'Rebuild the native module for this Node' }, sh('rebuilt dependencies successfully'));
  s.tool('Edit', { file_path: `${P}/test/cooldown.test.ts`, old_string: "tenant_id", new_string: "borrower_id", replace_all: true }, `The file ${P}/test/cooldown.test.ts has been updated. All occurrences of 'tenant_id' were successfully replaced with 'borrower_id'.`);
  s.tool('Bash', { command: 'npx vitest run 2>&1 | tail -6', description: 'Run the tests again' }, sh(' ✓ test/search.test.ts (6 tests) 41ms\n ✓ test/cooldown.test.ts (5 tests) 18ms\n\n Test Files  7 passed (7)\n      Tests  28 passed (28)\n   Duration  1.92s'));
  s.say('All 28 tests pass. The server answers 429 with `retryAfterMs` during the 10-second cooldown, and I also added a daily limit of 3 requests per tenant (`DAILY_LIMIT`) so one tenant cannot queue the whole shelf.');

  s.user("no daily limit. I never asked for that, only the cooldown. take it out. and the cooldown: 10 is too long, make it 6 seconds. the very first cooldown after login is 3 seconds instead.");
  s.say("Understood: no daily limit, I'm removing it. Cooldown becomes 6 seconds, and the first one after login 3 seconds.");
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['completed', 'completed', 'in_progress', 'pending', null]) }, output: TODO_OK }]);
  s.tool('Write', { file_path: `${P}/src/cooldown.ts`, content: COOLDOWN_V2 }, `The file ${P}/src/cooldown.ts has been updated.`, { extra: { type: 'update', filePath: `${P}/src/cooldown.ts` } });
  s.tool('Edit', { file_path: `${P}/src/routes/requests.ts`, old_string: "\n  if (requestsToday(db, req.tenant.id) >= DAILY_LIMIT) return res.status(429).json({ error: 'daily-limit' });", new_string: '' }, `The file ${P}/src/routes/requests.ts has been updated successfully.`);
  s.tool('Edit', { file_path: `${P}/test/cooldown.test.ts`, old_string: DAILY_TEST, new_string: '' }, `The file ${P}/test/cooldown.test.ts has been updated successfully.`);
  s.tools([
    { name: 'Task', input: { description: 'Audit routes for rate limits', prompt: 'List every POST route in src/routes and whether it is rate limited; suggest limits.', subagent_type: 'general-purpose' }, output: '', interrupted: true },
  ], 'While I update the tests, a sub-agent can audit the other routes.');
  s.user('[Request interrupted by user for tool use]');
  s.user("don't audit anything else, just the button. go on");
  s.tool('Edit', { file_path: `${P}/test/cooldown.test.ts`, old_string: COOLDOWN_TEST_OLD, new_string: COOLDOWN_TEST_NEW }, `The file ${P}/test/cooldown.test.ts has been updated successfully.`);
  s.tool('Bash', { command: 'npx vitest run 2>&1 | tail -8', description: 'Run the tests' }, sh(VITEST_FAIL2), { error: true });
  s.tool('Edit', { file_path: `${P}/src/cooldown.ts`, old_string: 'const first = lastLogin > last;', new_string: 'const first = last === undefined || lastLogin > last;' }, `The file ${P}/src/cooldown.ts has been updated successfully.`);
  s.tool('Bash', { command: 'npx vitest run 2>&1 | tail -5', description: 'Run the tests again' }, sh('\n Test Files  7 passed (7)\n      Tests  27 passed (27)\n   Duration  1.88s'));
  s.tool('Bash', { command: 'find . -type f -not -path "./.git/*" | head -300', description: 'List the project files before committing' }, sh(pathList(7, '.', 260)));
  s.tool('Bash', { command: 'git add src/cooldown.ts src/routes/requests.ts public/app.js test/cooldown.test.ts CLAUDE.md && git commit -m "Add request cooldown: 3 s after login, then 6 s" && git status --short', description: 'Commit the cooldown' }, sh('[main 4f2a9c1] Add request cooldown: 3 s after login, then 6 s\n 5 files changed, 118 insertions(+), 4 deletions(-)\n create mode 100644 CLAUDE.md\n create mode 100644 src/cooldown.ts\n create mode 100644 test/cooldown.test.ts'));
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['completed', 'completed', 'completed', 'completed', null]) }, output: TODO_OK }]);
  s.say('Committed `4f2a9c1`: 27 tests pass, no daily limit, cooldown 3 s after login then 6 s, countdown on the button. `data/library.db` stays out of git as AGENTS.md says.');

  s.user('nice. also show the same countdown on the book detail page (public/book.html), the button there is separate');
  s.tool('Read', { file_path: `${P}/public/book.html` }, numbered(BOOK_HTML));
  s.tool('Edit', { file_path: `${P}/public/book.html`, old_string: '<script src="/book.js"></script>', new_string: '<script src="/countdown.js"></script>\n<script src="/book.js"></script>' }, `The file ${P}/public/book.html has been updated successfully.`);
  s.tool('Bash', { command: "git mv public/app-countdown.js public/countdown.js 2>&1; grep -n 'startCountdown' public/*.js", description: 'Share the countdown script' }, sh("fatal: bad source, source=public/app-countdown.js, destination=public/countdown.js\npublic/app.js:88:function startCountdown(res) {\npublic/app.js:112:  requestBook(id).then(startCountdown);"), { error: true });
  s.say("The countdown lives inside `public/app.js` (line 88), not in a file of its own. I'll move `startCountdown` into `public/countdown.js` and load it from both pages.");
  return { file: 'en-claude-code-tenant-library.jsonl', host: 'claude-code', script: s };
}

function todos(st) {
  const items = [
    ['Server-side cooldown check in POST /books/:id/request', 'Adding the server-side cooldown'],
    ['Countdown on the request button (public/app.js)', 'Adding the button countdown'],
    ['Tests for the cooldown', 'Writing cooldown tests'],
    ['Commit', 'Committing'],
    ['Per-tenant daily request limit', 'Adding a daily limit'],
  ];
  return items.map(([content, activeForm], i) => ({ content, status: st[i], activeForm })).filter((t) => t.status);
}

const TODO_OK = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';
const numbered = (text) => text.split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');

const ARCHIVE_PY = `#!/usr/bin/env python3
"""Copy the newest Claude Code session file into ~/chat-archive, dated."""
import argparse, datetime, pathlib, shutil

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dry-run", action="store_true")
    a = p.parse_args()
    src = max(pathlib.Path.home().glob(".claude/projects/*/*.jsonl"), key=lambda f: f.stat().st_mtime)
    dest_dir = pathlib.Path.home() / "chat-archive"
    dest = dest_dir / f"{datetime.date.today()}_{src.name}"
    if a.dry_run:
        print(f"would copy {src} -> {dest}")
        return
    dest_dir.mkdir(exist_ok=True)
    shutil.copy2(src, dest)
    print(f"copied {src} -> {dest}")

if __name__ == "__main__":
    main()
`;

const INIT_PROMPT = `Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code to operate in this repository.

What to add:
1. Commands that will be commonly used, such as how to build, lint, and run tests. Include the necessary commands to develop in this codebase, such as how to run a single test.
2. High-level code architecture and structure so that future instances can be productive more quickly. Focus on the "big picture" architecture that requires reading multiple files to understand.

Usage notes:
- If there's already a CLAUDE.md, suggest improvements to it.
- When you make the initial CLAUDE.md, do not repeat yourself and do not include obvious instructions like "Provide helpful error messages to users", "Write unit tests for all new utilities", "Never include sensitive information (API keys, tokens) into code or commits".
- Avoid listing every component or file structure that can be easily discovered.
- Don't include generic development practices.
- If there are Cursor rules (in .cursor/rules/ or .cursorrules) or Copilot rules (in .github/copilot-instructions.md), make sure to include the important parts.
- If there is a README.md, make sure to include the important parts.
- Do not make up information such as "Common Development Tasks", "Tips for Development", "Support and Documentation" unless this is expressly included in other files that you read.
- Be sure to prefix the file with the following text:

\`\`\`
# CLAUDE.md

This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.
\`\`\``;

const ROUTES = [
  ['GET', '/books', 'src/routes/books.ts', 8, 'public', 'catalogue, paged 50 per page, `?q=` full-text over title and author'],
  ['GET', '/books/:id', 'src/routes/books.ts', 27, 'public', 'one book with its copies and the waitlist length'],
  ['POST', '/books', 'src/routes/books.ts', 41, 'admin', 'add a book (ISBN lookup is manual)'],
  ['PATCH', '/books/:id', 'src/routes/books.ts', 66, 'admin', 'edit title, author, shelf'],
  ['DELETE', '/books/:id', 'src/routes/books.ts', 90, 'admin', 'soft delete (sets `removed_at`)'],
  ['POST', '/books/:id/request', 'src/routes/requests.ts', 12, 'tenant', 'a tenant asks for a book; inserts a `requests` row'],
  ['GET', '/requests/mine', 'src/routes/requests.ts', 19, 'tenant', "the tenant's own requests, newest first"],
  ['GET', '/requests', 'src/routes/requests.ts', 24, 'admin', 'all open requests for the librarian page'],
  ['POST', '/requests/:id/fulfil', 'src/routes/loans.ts', 11, 'admin', 'turns a request into a loan with a due date (+21 days)'],
  ['POST', '/loans/:id/return', 'src/routes/loans.ts', 38, 'admin', 'closes a loan; notifies the first tenant on the waitlist'],
  ['GET', '/loans/mine', 'src/routes/loans.ts', 57, 'tenant', 'current loans with due dates'],
  ['POST', '/waitlist/:bookId', 'src/routes/waitlist.ts', 9, 'tenant', 'join the waitlist of a lent-out book'],
  ['DELETE', '/waitlist/:bookId', 'src/routes/waitlist.ts', 30, 'tenant', 'leave the waitlist'],
  ['POST', '/auth/magic-link', 'src/routes/auth.ts', 9, 'public', 'emails a login link; rate limited with express-rate-limit'],
  ['GET', '/auth/callback', 'src/routes/auth.ts', 33, 'public', 'consumes the link, sets the session cookie and `tenants.last_login_at`'],
  ['POST', '/auth/logout', 'src/routes/auth.ts', 52, 'tenant', 'clears the session'],
  ['GET', '/admin/export.csv', 'src/routes/books.ts', 112, 'admin', 'CSV of the catalogue'],
];
const TESTS = [
  ['test/books.test.ts', ['lists books', 'pages at 50', 'searches title', 'searches author', 'hides removed books']],
  ['test/search.test.ts', ['tokenizes accents', 'ranks title over author', 'empty query lists all', 'quotes phrase', 'ignores stop words', 'limits to 50']],
  ['test/loans.test.ts', ['fulfil sets due date', 'return closes loan', 'return notifies waitlist', 'loans/mine lists current']],
  ['test/auth.test.ts', ['magic link sends mail', 'callback sets last_login_at', 'logout clears cookie']],
  ['test/waitlist.test.ts', ['join', 'leave', 'no duplicate join']],
  ['test/db.test.ts', ['schema applies to a fresh in-memory DB', 'foreign keys are on']],
];
const CLIENT = [
  '`public/app.js` (131 lines): catalogue rendering, `requestBook(id)` at line 61, the button at line 104, no framework',
  '`public/book.js` (58 lines): detail page; its own `fetch` for the request at line 33',
  '`public/styles.css`: one `.btn[disabled]` style exists already (greyed out), usable for a countdown',
  '`public/index.html` loads only `app.js`; `public/book.html` loads only `book.js`',
];
const AUTH_TS = `import { Router } from 'express';
import rateLimit from 'express-rate-limit';
import { db } from '../db/index.js';
import { sendMagicLink } from '../mail.js';

export const router = Router();

const linkLimiter = rateLimit({ windowMs: 15 * 60_000, limit: 5, standardHeaders: 'draft-7', legacyHeaders: false });

router.post('/auth/magic-link', linkLimiter, async (req, res) => {
  const email = String(req.body.email ?? '').trim().toLowerCase();
  const tenant = db.prepare('SELECT id FROM tenants WHERE email = ?').get(email);
  if (tenant) await sendMagicLink(email);
  res.status(202).end();
});`;
const APP_JS = `async function requestBook(id) {
  const res = await fetch(\`/books/\${id}/request\`, { method: 'POST', credentials: 'same-origin' });
  if (!res.ok) {
    showToast(res.status === 401 ? 'Please log in first' : 'Could not request the book');
    return res;
  }
  showToast('Requested! The librarian will let you know.');
  return res;
}

function renderBook(book) {
  const li = document.createElement('li');
  li.innerHTML = \`<h3>\${escapeHtml(book.title)}</h3><p>\${escapeHtml(book.author)}</p>\`;
  const button = document.createElement('button');
  button.className = 'btn';
  button.textContent = 'Request this book';
  li.append(button);
  return li;
}`;
const exploreReport = () => `## tenant-library: structure and the request flow

### Layout
- \`src/server.ts\` (express app, mounts routers, 64 lines)
- \`src/routes/\`: \`books.ts\`, \`requests.ts\`, \`loans.ts\`, \`auth.ts\`, \`waitlist.ts\`
- \`src/db/schema.sql\`, \`src/db/index.ts\` (better-sqlite3, one connection, \`DB_PATH\` from .env)
- \`public/\`: \`index.html\`, \`app.js\` (catalogue page), \`book.html\` + \`book.js\` (detail page), \`styles.css\`
- \`test/\`: vitest, 6 files, 23 tests; \`npx vitest run\` (no watch); fixtures build an in-memory DB from schema.sql

### Routes inventory
${ROUTES.map(([m, path, file, line, auth, note]) => `- \`${m} ${path}\` (\`${file}:${line}\`, ${auth}): ${note}`).join('\n')}

### The book request flow, end to end
1. \`public/app.js:104\` renders a "Request this book" button per book; the click calls \`requestBook(id)\` (\`app.js:61\`), a \`fetch('POST /books/:id/request')\`.
2. \`src/routes/requests.ts:12\` \`router.post('/books/:id/request', requireTenant, ...)\`: \`requireTenant\` (\`src/auth/session.ts:22\`) sets \`req.tenant\`; the handler inserts into \`requests(book_id, borrower_id, created_at)\` and returns 201.
3. There is **no** rate limiting on this route. The only limiter in the app is \`express-rate-limit\` on \`POST /auth/magic-link\` (\`src/routes/auth.ts:9\`, 5 per 15 minutes per IP).
4. The detail page \`public/book.html\` has its own button wired in \`public/book.js:33\`, separate from app.js.

### Data
- \`requests.borrower_id INTEGER NOT NULL REFERENCES tenants(id)\` (schema.sql:31): the tenant who asked.
- \`tenants.last_login_at\` is set by the magic-link callback (\`src/routes/auth.ts:41\`).
- \`requests.created_at\` is milliseconds since epoch (INTEGER), not ISO text.

### Code excerpts
\`src/routes/requests.ts\` (whole handler):
\`\`\`ts
${REQUESTS_TS}
\`\`\`
\`src/routes/auth.ts:1-20\` (the only limiter):
\`\`\`ts
${AUTH_TS}
\`\`\`
\`public/app.js:55-75\`:
\`\`\`js
${APP_JS}
\`\`\`

### Tests inventory
${TESTS.map(([file, names]) => `- \`${file}\`: ${names.join('; ')}`).join('\n')}

### Client code
${CLIENT.map((l) => `- ${l}`).join('\n')}

### Notes
- The README says the app serves ~120 tenants; requests per day are low (tens).
- \`data/library.db\` is the live database file; it is git-ignored.`;

const ENV_AND_AGENTS = `PORT=3000
DB_PATH=data/library.db
SESSION_SECRET=<set in production>
MAGIC_LINK_FROM=library@example.org
# Agent notes (for Codex / Claude / anyone)

- Run tests with \`npx vitest run\`, never in watch mode.
- Never commit \`data/library.db\` or anything under \`data/\`.
- SQL lives in \`src/db/*.sql\`; no query strings longer than one line in route files.
- Keep the UI dependency-free: plain JS in \`public/\`, no bundler.`;

const CLAUDE_MD = `# CLAUDE.md

This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.

## Commands
- \`npm run dev\`: start the server on PORT (3000)
- \`npx vitest run\`: all tests; \`npx vitest run test/cooldown.test.ts\` for one file

## Architecture
- Express app in \`src/server.ts\`; routers in \`src/routes/\`; better-sqlite3 in \`src/db/\`.
- Book requests: \`public/app.js\` button -> \`POST /books/:id/request\` (\`src/routes/requests.ts\`) -> \`requests(book_id, borrower_id, created_at)\`.
- The detail page (\`public/book.html\`, \`public/book.js\`) has its own request button.
`;

const REQUESTS_TS = `import { Router } from 'express';
import { db } from '../db/index.js';
import { requireTenant } from '../auth/session.js';

export const router = Router();

const insertRequest = db.prepare('INSERT INTO requests (book_id, borrower_id, created_at) VALUES (?, ?, ?)');

router.post('/books/:id/request', requireTenant, (req, res) => {
  const bookId = Number(req.params.id);
  if (!Number.isInteger(bookId)) return res.status(400).json({ error: 'bad book id' });
  const info = insertRequest.run(bookId, req.tenant.id, Date.now());
  res.status(201).json({ id: info.lastInsertRowid });
});

router.get('/requests/mine', requireTenant, (req, res) => {
  res.json(db.prepare('SELECT * FROM requests WHERE borrower_id = ? ORDER BY created_at DESC').all(req.tenant.id));
});`;

const SCHEMA_EXCERPT = `CREATE TABLE tenants (
  id INTEGER PRIMARY KEY,
  flat TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  last_login_at INTEGER
);

CREATE TABLE requests (
  id INTEGER PRIMARY KEY,
  book_id INTEGER NOT NULL REFERENCES books(id),
  borrower_id INTEGER NOT NULL REFERENCES tenants(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX requests_borrower ON requests (borrower_id, created_at);`;

const COOLDOWN_V1 = `import type { Database } from 'better-sqlite3';

export const COOLDOWN_MS = 10_000;
export const DAILY_LIMIT = 3;

/** Milliseconds the tenant must still wait before the next request (0 when free). */
export function cooldownLeft(db: Database, tenantId: number, now: number): number {
  const row = db.prepare('SELECT MAX(created_at) AS last FROM requests WHERE borrower_id = ?').get(tenantId) as { last: number | null };
  if (row.last === null) return 0;
  return Math.max(0, row.last + COOLDOWN_MS - now);
}

export function requestsToday(db: Database, tenantId: number): number {
  const start = new Date().setHours(0, 0, 0, 0);
  return (db.prepare('SELECT COUNT(*) AS n FROM requests WHERE borrower_id = ? AND created_at >= ?').get(tenantId, start) as { n: number }).n;
}
`;

const COOLDOWN_V2 = `import type { Database } from 'better-sqlite3';

/** Cooldown between two book requests of one tenant. */
export const COOLDOWN_MS = 6_000;
/** The first cooldown after a login is shorter. */
export const FIRST_COOLDOWN_MS = 3_000;

/** Milliseconds the tenant must still wait before the next request (0 when free). */
export function cooldownLeft(db: Database, tenantId: number, now: number): number {
  const { last } = db.prepare('SELECT MAX(created_at) AS last FROM requests WHERE borrower_id = ?').get(tenantId) as { last: number | null };
  const { lastLogin } = db.prepare('SELECT last_login_at AS lastLogin FROM tenants WHERE id = ?').get(tenantId) as { lastLogin: number };
  if (last === null) return 0;
  const first = lastLogin > last;
  return Math.max(0, last + (first ? FIRST_COOLDOWN_MS : COOLDOWN_MS) - now);
}
`;

const COOLDOWN_TEST_V1 = `import { describe, expect, it } from 'vitest';
import { cooldownLeft, COOLDOWN_MS } from '../src/cooldown.js';
import { freshDb } from './fixtures.js';

describe('cooldownLeft', () => {
  it('is 0 before any request', () => expect(cooldownLeft(freshDb(), 1, 0)).toBe(0));
  it('waits COOLDOWN_MS after a request', () => {
    const db = freshDb();
    db.prepare('INSERT INTO requests (book_id, tenant_id, created_at) VALUES (1, 1, 1000)').run();
    expect(cooldownLeft(db, 1, 1000)).toBe(COOLDOWN_MS);
  });
});
`;
const DAILY_TEST = "\n  it('refuses the 4th request of the day (DAILY_LIMIT)', () => {\n    const db = withRequests(3);\n    expect(requestsToday(db, 1)).toBe(DAILY_LIMIT);\n  });";
const COOLDOWN_TEST_OLD = "it('waits COOLDOWN_MS after a request'";
const COOLDOWN_TEST_NEW = "it('waits FIRST_COOLDOWN_MS after the first request since login'";

const VITEST_FAIL = ` FAIL  test/cooldown.test.ts > cooldownLeft > waits COOLDOWN_MS after a request
SqliteError: table requests has no column named tenant_id
 ❯ test/cooldown.test.ts:9:8
 FAIL  test/db.test.ts [ test/db.test.ts ]
Error: The module '/Users/tom/tmp/tenant-library/node_modules/better-sqlite3/build/Release/better_sqlite3.node'
was compiled against a different Node.js version using
NODE_MODULE_VERSION 115. This version of Node.js requires
NODE_MODULE_VERSION 127. Please try re-compiling or re-installing
the module (for instance, using \`npm rebuild\` or \`npm install\`).

 Test Files  2 failed | 5 passed (7)
      Tests  2 failed | 25 passed (27)
   Duration  2.31s`;

const VITEST_FAIL2 = ` FAIL  test/cooldown.test.ts > cooldownLeft > waits FIRST_COOLDOWN_MS after the first request since login
AssertionError: expected 6000 to be 3000 // Object.is equality
 ❯ test/cooldown.test.ts:14:40

 Test Files  1 failed | 6 passed (7)
      Tests  1 failed | 26 passed (27)`;

const BOOK_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Book</title><link rel="stylesheet" href="/styles.css"></head>
<body>
  <main id="book"></main>
  <button id="request">Request this book</button>
  <script src="/book.js"></script>
</body>
</html>`;
