import { describe, expect, it } from 'vitest';
import { hostWritten, promptStanding, replyStanding, type StandingFrame } from '@hive-mind/mind';

/** The frames as `kind importance: content`, for readable failures. */
const show = (fs: StandingFrame[]) => fs.map((f) => `${f.kind} ${f.importance}: ${f.content}`);

describe('standing instructions from a prompt: lasting rules and preferences only', () => {
  // each row: a realistic prompt, the kind it must give, and a piece of its content
  it.each([
    ['en', 'From now on, run the linter before every commit.', 'instruction', 'run the linter before every commit'],
    ['en', 'Always use pnpm in this repo, never npm.', 'instruction', 'use pnpm'],
    ['en', 'Whenever you touch the billing module, update CHANGELOG.md as well.', 'instruction', 'CHANGELOG.md'],
    ['en', 'When you update the changelog, replace the existing entry instead of appending a new one.', 'instruction', 'replace the existing entry'],
    ['en', 'Use tabs for indentation, not spaces.', 'instruction', 'tabs'],
    ['en', "Don't add comments that just restate the code.", 'instruction', 'comments'],
    ['en', 'Match exact route names first, then prefixes.', 'instruction', 'exact route names first'],
    ['en', 'Run the integration tests with --runInBand before you push: they share one database.', 'instruction', '--runInBand'],
    ['en', 'I prefer short answers without a summary at the end.', 'preference', 'short answers'],
    ['en', "I'd rather you ask before installing new dependencies.", 'preference', 'ask before installing'],
    ['en', 'Can you always show me the diff before you commit?', 'instruction', 'show me the diff'],
    ['en', 'ok so invalid themes must NEVER crash the app, show an error instead', 'instruction', 'must NEVER crash'],
    ['de', 'Ab jetzt bitte immer pnpm verwenden, nie npm.', 'instruction', 'pnpm'],
    ['de', 'Wenn du die Migrationen änderst, aktualisiere auch docs/schema.md.', 'instruction', 'docs/schema.md'],
    ['de', 'Ich bevorzuge kurze Antworten ohne Zusammenfassung am Ende.', 'preference', 'kurze Antworten'],
    ['de', 'Antworte mir bitte immer auf Deutsch und fass dich kurz.', 'instruction', 'auf Deutsch'],
    ['fr', 'Réponds-moi toujours en français, jamais en anglais.', 'instruction', 'en français'],
    ['es', 'Responde siempre en español, por favor.', 'instruction', 'en español'],
    ['nl', 'Antwoord altijd in het Nederlands.', 'instruction', 'Nederlands'],
    ['fr', "Désormais, utilise toujours pnpm, jamais npm.", 'instruction', 'pnpm'],
    ['fr', 'Quand tu modifies le schéma, mets à jour docs/schema.md.', 'instruction', 'docs/schema.md'],
    ['fr', 'Je préfère des réponses courtes, sans résumé à la fin.', 'preference', 'réponses courtes'],
    ['es', 'A partir de ahora usa siempre pnpm, nunca npm.', 'instruction', 'pnpm'],
    ['es', 'Cuando cambies el esquema, actualiza también docs/schema.md.', 'instruction', 'docs/schema.md'],
    ['es', 'Prefiero respuestas cortas, sin resumen al final.', 'preference', 'respuestas cortas'],
    ['it', "D'ora in poi usa sempre pnpm, mai npm.", 'instruction', 'pnpm'],
    ['it', 'Quando modifichi lo schema, aggiorna anche docs/schema.md.', 'instruction', 'docs/schema.md'],
    ['it', 'Preferisco risposte brevi, senza riassunto alla fine.', 'preference', 'risposte brevi'],
    ['pt', 'A partir de agora use sempre pnpm, nunca npm.', 'instruction', 'pnpm'],
    ['pt', 'Quando alterar o esquema, atualize também docs/schema.md.', 'instruction', 'docs/schema.md'],
    ['pt', 'Prefiro respostas curtas, sem resumo no final.', 'preference', 'respostas curtas'],
    ['nl', 'Gebruik voortaan altijd pnpm, nooit npm.', 'instruction', 'pnpm'],
    ['nl', 'Als je het schema wijzigt, werk dan ook docs/schema.md bij.', 'instruction', 'docs/schema.md'],
    ['nl', 'Ik heb liever korte antwoorden zonder samenvatting.', 'preference', 'korte antwoorden'],
    ['ja', '今後は必ず pnpm を使ってください。npm は使わないでください。', 'instruction', 'pnpm'],
    ['ja', 'スキーマを変更するときは、docs/schema.md も更新してください。', 'instruction', 'docs/schema.md'],
    ['ja', '回答は短いほうが好きです。', 'preference', '回答は短い'],
    ['zh', '以后请一律使用 pnpm，不要用 npm。', 'instruction', 'pnpm'],
    ['zh', '每次修改数据库结构时，都要更新 docs/schema.md。', 'instruction', 'docs/schema.md'],
    ['zh', '我更喜欢简短的回答。', 'preference', '简短的回答'],
    ['ko', '앞으로는 항상 pnpm을 사용하고 npm은 쓰지 마세요.', 'instruction', 'pnpm'],
    ['ko', '스키마를 변경할 때는 docs/schema.md도 업데이트해 주세요.', 'instruction', 'docs/schema.md'],
    ['ko', '저는 짧은 답변을 선호합니다.', 'preference', '짧은 답변'],
  ])('%s: "%s" is a standing %s', (_lang, prompt, kind, piece) => {
    const fs = promptStanding(prompt);
    expect(show(fs)).toEqual([expect.stringContaining(piece)]);
    expect(fs[0]!.kind).toBe(kind);
    expect(fs[0]!.importance).not.toBe('critical');
  });

  it.each([
    // the remarks of issue 21
    ['en', 'Never mind, revert that last change to the navbar.'],
    ['en', 'run the tests again'],
    ['en', "don't worry about the lint warnings for now"],
    ['en', 'Make sure this is all implemented and functional'],
    ['en', 'Always a pleasure!'],
    ['en', 'Always a great way to relax.'],
    // one-off orders and steering
    ['en', 'Port this Python project to Rust.'],
    ['en', 'Please fix the failing test in src/parser.test.ts.'],
    ["en", "Don't stop until all functions are ported, tests pass, and you have 100% coverage."],
    ['en', "should be dimmer, don't modify the theme, look into the footer sources"],
    ['en', 'no, the block should stay as it is in the old version'],
    ['en', 'actually, can you revert that? I want to move those files to their final location.'],
    // complaints, venting, questions
    ['en', 'I selected the theme while you were working and got a crash, that should never happen.'],
    ['en', 'why do you always read 100 lines at a time?'],
    ['en', 'ugh, you never listen. this is broken again'],
    // chit-chat with rule words in it (LoCoMo-like)
    ['en', "I've always wanted to try the seafood there."],
    ['en', "Thanksgiving's always special for us."],
    ["en", "Don't give up on your dreams!"],
    ['en', 'Your wedding day must have been so special.'],
    ['en', "Nope, never been on a sports team."],
    ['en', 'Stay motivated and remember that anything is possible with hard work.'],
    ['de', 'Egal, mach die letzte Änderung an der Navbar rückgängig.'],
    ['de', 'Führ die Tests nochmal aus.'],
    ['de', 'Um die Lint-Warnungen kümmern wir uns erstmal nicht.'],
    ['de', 'Immer wieder gern!'],
    ['fr', 'Laisse tomber, annule la dernière modification de la navbar.'],
    ['fr', 'Relance les tests.'],
    ["fr", "Ne t'inquiète pas pour les avertissements du linter pour l'instant."],
    ['fr', 'Toujours un plaisir !'],
    ['es', 'No importa, deshaz el último cambio de la barra de navegación.'],
    ['es', 'Vuelve a ejecutar los tests.'],
    ['es', 'No te preocupes por los warnings del linter por ahora.'],
    ['es', '¡Siempre es un placer!'],
    ['it', "Lascia perdere, annulla l'ultima modifica alla navbar."],
    ['it', 'Esegui di nuovo i test.'],
    ['it', 'Per ora non preoccuparti degli avvisi del linter.'],
    ['it', 'È sempre un piacere!'],
    ['pt', 'Deixa pra lá, desfaz a última alteração na navbar.'],
    ['pt', 'Roda os testes de novo.'],
    ['pt', 'Não se preocupe com os avisos do lint por enquanto.'],
    ['pt', 'Sempre um prazer!'],
    ['nl', 'Laat maar, draai de laatste wijziging aan de navbar terug.'],
    ['nl', 'Draai de tests nog een keer.'],
    ['nl', 'Maak je voorlopig geen zorgen over de lint-waarschuwingen.'],
    ['nl', 'Altijd een plezier!'],
    ['ja', 'やっぱりいいや、さっきのナビバーの変更を元に戻して。'],
    ['ja', 'もう一度テストを実行して。'],
    ['ja', 'とりあえず lint の警告は気にしないで。'],
    ['ja', 'いつも楽しいです！'],
    ['zh', '算了，把刚才导航栏的改动撤销吧。'],
    ['zh', '再跑一遍测试。'],
    ['zh', '暂时不用管 lint 警告。'],
    ['zh', '和你聊天总是很开心！'],
    ['ko', '됐어, 방금 네비바 변경 되돌려 줘.'],
    ['ko', '테스트 다시 돌려 줘.'],
    ['ko', '일단 린트 경고는 신경 쓰지 마.'],
    ['ko', '항상 즐거워요!'],
  ])('%s: "%s" gives no standing frame', (_lang, prompt) => {
    expect(show(promptStanding(prompt))).toEqual([]);
  });

  it('a rule the agent acknowledges as lasting is kept; the same words followed by a one-off action are not', () => {
    expect(show(promptStanding('Use vitest for new tests.'))).toEqual([]);
    expect(show(promptStanding('Use vitest for new tests.', { reply: "Got it — I'll use vitest for new tests from now on." }))).toEqual(['instruction normal: Use vitest for new tests.']);
    expect(show(promptStanding('Use vitest for new tests.', { reply: 'Added src/math.test.ts with vitest; all 3 tests pass.' }))).toEqual([]);
    expect(show(promptStanding('新しいテストには vitest を使って。', { reply: '承知しました。今後は新しいテストに vitest を使います。' }))).toEqual(['instruction normal: 新しいテストには vitest を使って。']);
    expect(show(promptStanding('Never mind, revert that last change to the navbar.', { reply: 'Reverted the navbar change.' }))).toEqual([]);
  });

  it('a rule written above a pasted log keeps the rule and none of the log', () => {
    const prompt = [
      'this exploded on restart. invalid configs must never crash the app',
      '',
      '➜  app git:(main) npx tsx src/cli.ts -r',
      'Error: Invalid hex color: #000cc',
      '    at hexToRgb (/home/user/app/src/theme.ts:148:9)',
    ].join('\n');
    expect(show(promptStanding(prompt))).toEqual(['instruction important: invalid configs must never crash the app']);
  });

  it('venting words are removed from a kept rule', () => {
    expect(show(promptStanding('omfg use fucking rgb values in the themes, no rgb indices!'))).toEqual(['instruction normal: Use rgb values in the themes, no rgb indices!']);
  });
});

describe('critical only from the user\'s explicit mark', () => {
  it.each([
    ['critical: never run migrations against the production database', 'instruction', 'never run migrations against the production database'],
    ['Important: the staging database is reset every night at 02:00.', 'fact', 'the staging database is reset every night at 02:00'],
    ['remember: deploys go through the release branch, never from main', 'instruction', 'deploys go through the release branch'],
    ['**IMPORTANT:** always ask before deleting files', 'instruction', 'always ask before deleting files'],
    ['Wichtig: niemals direkt auf main pushen.', 'instruction', 'niemals direkt auf main pushen'],
    ['Merk dir: die Staging-Datenbank läuft auf Port 5433.', 'environment', 'Port 5433'],
    ['Important : ne jamais pousser directement sur main.', 'instruction', 'ne jamais pousser directement sur main'],
    ['Importante: nunca hagas push directo a main.', 'instruction', 'nunca hagas push directo a main'],
    ['Ricorda: non fare mai push diretto su main.', 'instruction', 'non fare mai push diretto su main'],
    ['Importante: nunca faça push direto na main.', 'instruction', 'nunca faça push direto na main'],
    ['Belangrijk: nooit direct naar main pushen.', 'instruction', 'nooit direct naar main pushen'],
    ['重要：main に直接 push しないでください。', 'instruction', 'main に直接 push しないでください'],
    ['重要：不要直接推送到 main 分支。', 'instruction', '不要直接推送到 main 分支'],
    ['중요: main 브랜치에 직접 푸시하지 마세요.', 'instruction', 'main 브랜치에 직접 푸시하지 마세요'],
  ])('"%s" is critical', (prompt, kind, piece) => {
    const fs = promptStanding(prompt);
    expect(show(fs)).toEqual([expect.stringContaining(piece)]);
    expect(fs[0]).toMatchObject({ kind, importance: 'critical' });
  });

  it('rule words alone never make a frame critical', () => {
    for (const p of ['Never push to the production branch without a review.', 'You must always run the security checks before a release.', 'NEVER commit secrets or credentials.', 'Never mind, revert that last change to the navbar.']) {
      for (const f of promptStanding(p)) expect(f.importance, p).not.toBe('critical');
    }
  });

  it('an explicit memory request without the mark is important, not critical, also when it opens a later sentence', () => {
    expect(show(promptStanding('remember that the build uses pnpm'))).toEqual(['fact important: The build uses pnpm']);
    expect(show(promptStanding('From now on, run the integration tests with --runInBand. Also remember that my editor font is Iosevka'))).toEqual([
      'instruction important: From now on, run the integration tests with --runInBand.',
      'fact important: My editor font is Iosevka',
    ]);
    expect(show(promptStanding('Keep in mind that the CI runners have no network access.'))).toEqual(['fact important: The CI runners have no network access.']);
  });

  it('the agent\'s account is never critical, whatever it says', () => {
    for (const r of ['Critical: the production database runs PostgreSQL 16 on port 5433.', 'IMPORTANT: never push to main; I switched the hooks to block it.', 'Remember: the staging API is served at https://staging.example.com:8443.']) {
      for (const f of replyStanding(r)) expect(f.importance, r).not.toBe('critical');
    }
  });
});

describe('text the host wrote is never the user\'s instruction', () => {
  const init = [
    'Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code to operate in this repository.',
    '',
    'What to add:',
    '1. Commands that will be commonly used, such as how to build, lint, and run tests. Include the necessary commands to develop in this codebase, such as how to run a single test.',
    '2. High-level code architecture and structure so that future instances can be productive more quickly.',
    '',
    'Usage notes:',
    "- If there's already a CLAUDE.md, suggest improvements to it.",
    '- When you make the initial CLAUDE.md, do not repeat yourself and do not include obvious instructions like "Provide helpful error messages to users", "Write unit tests for all new utilities", "Never include sensitive information (API keys, tokens) in code or commits".',
    '- Avoid listing every component or file structure that can be easily discovered.',
    "- Don't include generic development practices.",
  ].join('\n');
  it.each([
    ['Claude Code /init template', init],
    ['slash command record', '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>'],
    ['system reminder', '<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You MUST refuse to improve or augment the code.\n</system-reminder>'],
    ['local command caveat', 'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.'],
    ['hook feedback', 'Stop hook feedback:\n[${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh]: Cannot exit with unstaged changes.\n\nBefore stopping, please:\n\n1. Always run `git status`'],
    ['interrupted turn', '[Request interrupted by user for tool use]'],
    ['Codex environment context', '<environment_context>\n  <cwd>/home/user/project</cwd>\n  <approval_policy>never</approval_policy>\n</environment_context>'],
    ['AGENTS.md injected by the host', '# AGENTS.md instructions for /home/user/project\n\n<INSTRUCTIONS>\nAlways run npm test before committing.\n</INSTRUCTIONS>'],
    ['a checkpoint pasted back', '# Context Checkpoint: Coding Agent Refactoring\n\n## Branch\n`refactor` in `/home/user/pi-mono`\n\n## Key Decisions Made\n1. **Keep old code for reference** - never modify main.ts directly'],
    ['pi bash output', 'Ran `ls`\n```\nAGENTS.md\nREADME.md\npackage.json\n```'],
    ['a continued session', 'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: always use pnpm.'],
  ])('%s gives nothing', (_what, text) => {
    expect(hostWritten(text)).toBeTruthy();
    expect(show(promptStanding(text))).toEqual([]);
  });

  it('the user\'s own prose is not host text', () => {
    for (const t of ['From now on, run the linter before every commit.', 'the footer should be "warning" above 70%', 'スキーマを変更するときは、docs/schema.md も更新してください。']) expect(hostWritten(t)).toBeUndefined();
  });
});

describe('what the agent reports as done or found is a durable fact; status chatter is not kept', () => {
  it.each([
    ['en', 'The staging API is served at https://staging.example.com:8443.', 'environment', '8443'],
    ['en', 'Switched the test runner from jest to vitest.', 'decision', 'vitest'],
    ['en', 'The bug was caused by a stale cache key in src/cache.ts.', 'fact', 'stale cache key'],
    ['en', 'The billing database runs PostgreSQL 16 on port 5433.', 'environment', '5433'],
    ['en', 'The payments API is rate-limited to 100 requests per minute per token.', 'environment', '100 requests per minute'],
    ['en', 'The root cause was a race between the two subscription handlers; I merged them into one.', 'fact', 'race between the two subscription handlers'],
    ['en', 'Release branches are cut every Monday from main.', 'fact', 'Release branches are cut every Monday'],
    ['en', 'Routes are matched in declaration order, so the first match wins.', 'fact', 'declaration order'],
    ['en', 'I pinned pnpm to 9.12 because 9.13 breaks workspace links.', 'decision', 'Pinned pnpm to 9.12'],
    ['de', 'Die Staging-API läuft unter https://staging.example.com:8443.', 'environment', '8443'],
    ['de', 'Ich habe den Test-Runner von Jest auf Vitest umgestellt.', 'decision', 'Vitest'],
    ['de', 'Die Ursache war ein veralteter Cache-Schlüssel in src/cache.ts.', 'fact', 'veralteter Cache-Schlüssel'],
    ['fr', "L'API de staging est servie sur https://staging.example.com:8443.", 'environment', '8443'],
    ['fr', "J'ai remplacé Jest par Vitest comme lanceur de tests.", 'decision', 'Vitest'],
    ['fr', 'Le bug venait d\'une clé de cache obsolète dans src/cache.ts.', 'fact', 'clé de cache obsolète'],
    ['es', 'La API de staging se sirve en https://staging.example.com:8443.', 'environment', '8443'],
    ['es', 'Cambié el runner de tests de Jest a Vitest.', 'decision', 'Vitest'],
    ['es', 'El error se debía a una clave de caché obsoleta en src/cache.ts.', 'fact', 'clave de caché obsoleta'],
    ['it', "L'API di staging è servita su https://staging.example.com:8443.", 'environment', '8443'],
    ['it', 'Ho sostituito Jest con Vitest come test runner.', 'decision', 'Vitest'],
    ['it', 'Il bug era causato da una chiave di cache obsoleta in src/cache.ts.', 'fact', 'chiave di cache obsoleta'],
    ['pt', 'A API de staging é servida em https://staging.example.com:8443.', 'environment', '8443'],
    ['pt', 'Troquei o test runner de Jest para Vitest.', 'decision', 'Vitest'],
    ['pt', 'O bug era causado por uma chave de cache desatualizada em src/cache.ts.', 'fact', 'chave de cache desatualizada'],
    ['nl', 'De staging-API draait op https://staging.example.com:8443.', 'environment', '8443'],
    ['nl', 'Ik heb de testrunner van Jest naar Vitest omgezet.', 'decision', 'Vitest'],
    ['nl', 'De bug werd veroorzaakt door een verouderde cachesleutel in src/cache.ts.', 'fact', 'verouderde cachesleutel'],
    ['ja', 'ステージングAPIは https://staging.example.com:8443 で提供されています。', 'environment', '8443'],
    ['ja', 'テストランナーを Jest から Vitest に切り替えました。', 'decision', 'Vitest'],
    ['ja', '原因は src/cache.ts の古いキャッシュキーでした。', 'fact', '古いキャッシュキー'],
    ['zh', '预发环境的 API 部署在 https://staging.example.com:8443。', 'environment', '8443'],
    ['zh', '已将测试运行器从 Jest 切换到 Vitest。', 'decision', 'Vitest'],
    ['zh', '这个 bug 是由 src/cache.ts 中过期的缓存键导致的。', 'fact', '过期的缓存键'],
    ['ko', '스테이징 API는 https://staging.example.com:8443 에서 제공됩니다.', 'environment', '8443'],
    ['ko', '테스트 러너를 Jest에서 Vitest로 변경했습니다.', 'decision', 'Vitest'],
    ['ko', '원인은 src/cache.ts의 오래된 캐시 키 때문이었습니다.', 'fact', '오래된 캐시 키'],
  ])('%s: "%s" is a %s', (_lang, reply, kind, piece) => {
    const fs = replyStanding(reply);
    expect(show(fs)).toEqual([expect.stringContaining(piece)]);
    expect(fs[0]!.kind).toBe(kind);
    expect(fs[0]!.importance).toMatch(/^(?:normal|important)$/);
  });

  it.each([
    ['en', 'All clean, all committed.'],
    ['en', 'All 34 tests pass.'],
    ['en', 'Committed as 3f2a9c1.'],
    ['en', 'Done!'],
    ['en', 'The tests pass now and the build is green.'],
    ['en', 'Pushed to origin/main; the working tree is clean.'],
    ['en', "Everything is working as expected. Let me know if you'd like any other changes!"],
    ['en', "I'll run the tests now to verify everything compiles."],
    ['en', 'Reverted the navbar change.'],
    ['en', 'Great question! Want me to also add a test for the empty case?'],
    ['en', 'The port is complete. All 5 modules are implemented with 100% line coverage, tests pass, and the changes are committed.'],
    ['de', 'Alles erledigt, alles committet.'],
    ['de', 'Alle 34 Tests bestehen.'],
    ['fr', 'Tout est propre, tout est commité.'],
    ['fr', 'Les 34 tests passent.'],
    ['es', 'Todo limpio, todo commiteado.'],
    ['es', 'Los 34 tests pasan.'],
    ['it', 'Tutto pulito, tutto committato.'],
    ['it', 'Tutti i 34 test passano.'],
    ['pt', 'Tudo limpo, tudo commitado.'],
    ['pt', 'Todos os 34 testes passam.'],
    ['nl', 'Alles schoon, alles gecommit.'],
    ['nl', 'Alle 34 tests slagen.'],
    ['ja', 'すべてコミット済みです。'],
    ['ja', '34件のテストがすべて成功しました。'],
    ['zh', '全部已提交，工作区干净。'],
    ['zh', '34 个测试全部通过。'],
    ['ko', '모두 커밋했습니다.'],
    ['ko', '34개 테스트 모두 통과했습니다.'],
  ])('%s: "%s" is status chatter, not kept', (_lang, reply) => {
    expect(show(replyStanding(reply))).toEqual([]);
  });

  it('container and log lines are not environment facts, in a reply or a prompt', () => {
    const logs = [
      '```',
      '2024-05-01 12:00:01 INFO  Listening on 0.0.0.0:8080',
      '```',
      'web-1  | Server listening on port 3000',
      'db-1   | 2024-05-01 12:00:00.123 UTC [1] LOG:  database system is ready to accept connections',
      'CONTAINER ID   IMAGE         COMMAND                  STATUS         PORTS',
      'a1b2c3d4e5f6   postgres:16   "docker-entrypoint.s…"   Up 2 minutes   0.0.0.0:5432->5432/tcp',
      '[+] Running 2/2',
      ' ✔ Container app-db-1   Started',
    ].join('\n');
    expect(show(replyStanding(logs))).toEqual([]);
    expect(show(promptStanding(logs))).toEqual([]);
    expect(show(promptStanding(`the app does not start, here are the logs:\n${logs}`))).toEqual([]);
  });

  it('a mixed final report keeps its facts and leaves its status out', () => {
    const reply = [
      'Done. Here is a summary:',
      '',
      '- Switched the test runner from jest to vitest (`vitest.config.ts`).',
      '- The staging API is served at https://staging.example.com:8443.',
      '- All 34 tests pass.',
      '- Committed as 3f2a9c1.',
      '',
      'Let me know if you want anything else!',
    ].join('\n');
    expect(show(replyStanding(reply))).toEqual([
      'decision normal: Switched the test runner from jest to vitest (vitest.config.ts).',
      'environment normal: The staging API is served at https://staging.example.com:8443.',
    ]);
  });

  it('narration, guesses and plans are not findings', () => {
    for (const r of [
      'Let me check where the staging API is served.',
      'The bug might be caused by a stale cache key.',
      "I think the database probably runs on port 5433, but I haven't checked.",
      'Next, I will switch the test runner to vitest.',
      'Should I switch the test runner to vitest?',
    ]) expect(show(replyStanding(r)), r).toEqual([]);
  });

  it('keys are stable within a message', () => {
    const r = 'The staging API is served at https://staging.example.com:8443. Switched the test runner from jest to vitest.';
    expect(replyStanding(r).map((f) => f.key)).toEqual(replyStanding(r).map((f) => f.key));
    expect(new Set(replyStanding(r).map((f) => f.key)).size).toBe(2);
    const p = 'Always use pnpm, never npm. The staging API listens on port 8443.';
    expect(new Set(promptStanding(p).map((f) => f.key)).size).toBe(promptStanding(p).length);
  });
});

describe('stated values in a prompt stay environment facts', () => {
  it.each([
    ['Produktiv läuft alles bei Hetzner Cloud in Nürnberg auf dem Server app-01.', 'app-01'],
    ['Production runs in region eu-west-1 on AWS.', 'eu-west-1'],
    ['The staging API listens on port 8443.', '8443'],
    ['the database is postgres 16', 'postgres 16'],
    ['The API allows at most 60 requests per minute per key.', '60 requests per minute'],
    ['Die Staging-Datenbank läuft auf db-staging.internal:5432.', '5432'],
    ['ステージングのAPIはポート 8443 で動いています。', '8443'],
    ['预发环境的数据库在 10.0.0.5:5432 上。', '5432'],
    ['스테이징 API 서버는 포트 8443 에서 실행됩니다.', '8443'],
  ])('"%s" is an environment fact', (prompt, piece) => {
    expect(show(promptStanding(prompt))).toEqual([expect.stringMatching(new RegExp(`^environment normal: .*${piece}`))]);
  });
});

describe('what a reply\'s summary establishes', () => {
  it('the project\'s commands listed with what they do are one environment fact', () => {
    const reply = [
      'The Makefile is updated:',
      '- `make dev` - starts the API and the worker with hot reload',
      '- `make test` - runs the unit tests with coverage',
      '- `make lint` - runs ruff and mypy',
      '',
      'All tests pass.',
    ].join('\n');
    expect(show(replyStanding(reply))).toEqual(['environment normal: make dev - starts the API and the worker with hot reload; make test - runs the unit tests with coverage; make lint - runs ruff and mypy']);
  });

  it('a name of code and where it lives, as a summary lists it, is an environment fact', () => {
    expect(show(replyStanding('1. **`parse_invoice` function** in `billing/parser.py:42` - turns the PDF text into line items'))).toEqual([
      'environment normal: parse_invoice function in billing/parser.py:42 - turns the PDF text into line items',
    ]);
  });

  it('a design rule about a named piece of code is a decision; the same words about "it" are not', () => {
    expect(show(replyStanding('`flushQueue()` should only drain the in-memory queue, not close the connection.'))).toEqual(['decision normal: flushQueue() should only drain the in-memory queue, not close the connection.']);
    expect(show(replyStanding('It should only drain the queue, not close the connection.'))).toEqual([]);
  });

  it('"now the X supports Y" after a change is a fact; "now it works" is status', () => {
    expect(show(replyStanding('Now the importer supports gzip-compressed CSV files.'))).toEqual(['fact normal: The importer supports gzip-compressed CSV files.']);
    expect(show(replyStanding('Now the `Text` component properly implements `invalidate()` so when the theme changes:\n1. the cache is cleared'))).toEqual(['fact normal: The Text component properly implements invalidate().']);
    expect(show(replyStanding('Now it works and the build is green.'))).toEqual([]);
  });

  it('an intro that states a port or a switch counts; an intro to a list of edits does not', () => {
    expect(show(replyStanding('I migrated the job queue from Bull to BullMQ with these changes:\n- new worker file'))).toEqual(['decision normal: Migrated the job queue from Bull to BullMQ.']);
    expect(show(replyStanding('Here is what I changed in `src/app.ts`:\n- renamed a variable'))).toEqual([]);
  });

  it('of the things a reply says it built, two are kept; a list of edits belongs to the history', () => {
    const reply = ['- Added `parseArgs()` to src/cli/args.ts', '- Added `loadConfig()` to src/config.ts', '- Added `formatError()` to src/errors.ts', '- Added `retry()` to src/net.ts'].join('\n');
    expect(replyStanding(reply).map((f) => f.content)).toEqual(['Added parseArgs() to src/cli/args.ts', 'Added loadConfig() to src/config.ts']);
  });

  it('a list of the parts the work is made of is one fact, with its heading; a list of parts naming no code is not kept', () => {
    const reply = [
      '## Summary',
      '',
      '### Services (3, one per folder):',
      '1. **api** - the `FastAPI` app behind `/v1`',
      '2. **worker** - `process_invoice()` jobs from the `invoices` queue',
      '3. **web** - the Next.js front end',
      '',
      '### Notes',
      '- **Monday** - planning',
      '- **Friday** - demo',
    ].join('\n');
    expect(show(replyStanding(reply))).toEqual(['fact normal: Services (3, one per folder): api - the FastAPI app behind /v1; worker - process_invoice() jobs from the invoices queue; web - the Next.js front end']);
    expect(show(replyStanding('- **api** - the `FastAPI` app'))).toEqual([]);
  });

  it('named files removed are a fact, one memory for a list of them; a removal still to make is not', () => {
    expect(show(replyStanding('### Cleaned up:\n- Deleted `pyproject.toml` and `uv.lock`\n- Removed `scripts/old.sh`\n- Deleted `requirements.txt`'))).toEqual([
      'fact normal: Deleted pyproject.toml and uv.lock',
      'fact normal: Removed scripts/old.sh',
      'fact normal: Deleted requirements.txt',
    ]);
    expect(show(replyStanding('- Deleted `src/legacy_api.py`\n- Deleted `src/legacy_db.py`'))).toEqual(['fact normal: Deleted src/legacy_api.py; Deleted src/legacy_db.py']);
    expect(show(replyStanding('The old `setup.cfg` needs to be removed.'))).toEqual([]);
  });

  it('a measure with the tool that takes it is kept, even said as status; the status alone is not', () => {
    expect(show(replyStanding('- **100% line coverage** verified with `cargo llvm-cov`'))).toEqual(['environment normal: 100% line coverage verified with cargo llvm-cov']);
    expect(show(replyStanding('100% line coverage, all tests pass.'))).toEqual([]);
  });

  it('a summary written as a document keeps up to eight of its findings, a plain reply four', () => {
    const findings = ['The API is served at https://api.example.com:8443.', 'The worker runs on port 9000.', 'Switched the test runner from jest to vitest.', 'Pinned pnpm to 9.12 because 9.13 breaks links.', 'The cache lives in /var/cache/app/data.', 'The queue is limited to 100 requests per minute.'];
    expect(replyStanding(findings.join('\n'))).toHaveLength(4);
    expect(replyStanding(['## Summary', ...findings.slice(0, 3), '## Details', ...findings.slice(3)].join('\n'))).toHaveLength(6);
  });

  it('a rate limit is a value in every script', () => {
    for (const r of ['The payments API is rate-limited to 100 requests per minute per token.', '外部決済APIは1秒あたり20件に制限されています。', '外部支付 API 每秒最多 20 次请求。', '외부 결제 API는 초당 20건으로 제한됩니다.']) {
      expect(replyStanding(r).map((f) => f.kind), r).toEqual(['environment']);
    }
  });
});

describe('a rule named inside a remark', () => {
  it('"the invariant that …" gives the invariant, without the remark around it', () => {
    expect(show(promptStanding("hm, the list view breaks the invariant that every row a widget renders must not exceed the terminal width."))).toEqual([
      'instruction normal: Every row a widget renders must not exceed the terminal width.',
    ]);
  });
});

describe('common phrasings of facts: a subject, a verb of state, a value with a name, number or path', () => {
  // each row: a prompt or reply sentence, the kind it gives, a piece of its content
  it.each([
    ['The root cause of the slow query was a missing index on orders.customer_id.', 'fact', 'missing index'],
    ['The cause of the flaky upload test was a race in src/upload/queue.ts.', 'fact', 'race'],
    ['I checked the lockfile: the project is pinned to Terraform 1.6.4, so the new provider syntax is unavailable.', 'decision', 'Terraform 1.6.4'],
    ['We switched from esbuild to Vite.', 'decision', 'Vite'],
    ['We moved off esbuild; the bundler is now Vite.', 'decision', 'Vite'],
    ['Our CI runs on GitHub Actions.', 'environment', 'GitHub Actions'],
    ['The admin dashboard now runs on port 7200, not 7142 any more.', 'environment', '7200'],
    ['La cause du bug était un index manquant sur orders.customer_id.', 'fact', 'index manquant'],
    ['Notre CI tourne sur GitHub Actions.', 'environment', 'GitHub Actions'],
    ['Nous sommes passés de webpack à Vite.', 'decision', 'Vite'],
    ['Unsere CI läuft auf GitHub Actions.', 'environment', 'GitHub Actions'],
    ['Wir sind von webpack auf Vite umgestiegen.', 'decision', 'Vite'],
    ['Die Ursache für den Absturz war ein fehlender Index auf orders.customer_id.', 'fact', 'fehlender Index'],
  ])('prompt: %s', (text, kind, piece) => {
    const fs = promptStanding(text);
    expect(show(fs)).toEqual([expect.stringContaining(piece)]);
    expect(fs[0]!.kind).toBe(kind);
  });

  it.each([
    ['We use Terraform 1.6.4.', 'environment', 'Terraform 1.6.4'],
    ['Our CI runs on GitHub Actions.', 'environment', 'GitHub Actions'],
    ['I checked the lockfile: the project is pinned to Terraform 1.6.4, so the old syntax fails.', 'decision', 'Terraform 1.6.4'],
    ['The root cause of the slow query was a missing index on orders.customer_id.', 'fact', 'missing index'],
    ['We moved off esbuild; the bundler is now Vite.', 'decision', 'Vite'],
    ['Wir nutzen Terraform 1.6.4 für die Infrastruktur.', 'environment', 'Terraform'],
  ])('reply: %s', (text, kind, piece) => {
    const fs = replyStanding(text);
    expect(show(fs)).toEqual([expect.stringContaining(piece)]);
    expect(fs[0]!.kind).toBe(kind);
  });

  it.each([
    'The closure captures the binding to the theme variable, not the value.',
    'I moved from Boston to Paris last year.',
    'We use it a lot.',
    'The errors are in the TUI test files, not in coding-agent itself.',
  ])('no standing fact: %s', (text) => {
    expect(show([...promptStanding(text), ...replyStanding(text)])).toEqual([]);
  });
});
