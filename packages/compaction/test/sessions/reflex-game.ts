// One small coding session told in six languages: the user asks for a game (and for a plan
// first), sets a rule, corrects a claim of the agent, rejects a change, changes the rule; the
// agent decides, fails a test run and fixes it, reports, commits. The tool calls are the same in
// every language (Claude Code's tool names and result shapes); only what the people say differs.
import { LogBuilder } from '../helpers.js';

/** What the user and the agent say, in one language. */
export interface Phrasebook {
  lang: string;
  goal: string;
  plan: string;
  rule: string;
  claim: string;
  correction: string;
  admit: string;
  reject: string;
  apology: string;
  ruleChanged: string;
  report12: string;
  report14: string;
  /** A word of the goal that names the game (must be in the Goal). */
  gameWord: string;
  /** A word of the process sentence (must not be in the Goal). */
  planWord: string;
}

export const PHRASEBOOKS: readonly Phrasebook[] = [
  {
    lang: 'en',
    goal: 'Build a small reflex game in Python with pygame. Then give me a plan before you write any code.',
    plan: "Plan: a window, a counter, a cooldown between rounds. I'll use pygame.time.Clock instead of time.sleep for the cooldown.",
    rule: 'The first cooldown must be 10 seconds.',
    claim: 'Pygame 2.6 does not support Python 3.13 yet.',
    correction: 'No, pygame 2.6.1 supports Python 3.13, I checked the release notes.',
    admit: "You're right, pygame 2.6.1 ships wheels for Python 3.13.",
    reject: 'Undo that, no sound.',
    apology: 'Sorry, I removed the sound again.',
    ruleChanged: 'Actually, the first cooldown is 3 seconds instead.',
    report12: 'All 12 tests pass.',
    report14: 'Done: the first cooldown is now 3 seconds and all 14 tests pass.',
    gameWord: 'reflex game',
    planWord: 'plan',
  },
  {
    lang: 'fr',
    goal: "Crée un petit jeu de réflexes en Python avec pygame. Ensuite fais-moi un plan avant d'écrire du code.",
    plan: "Voici le plan : une fenêtre, un compteur, un délai de recharge entre les manches. J'utiliserai pygame.time.Clock plutôt que time.sleep pour le délai.",
    rule: 'Le premier délai de recharge doit être de 10 secondes.',
    claim: 'Pygame 2.6 ne prend pas encore en charge Python 3.13.',
    correction: "Non, pygame 2.6.1 prend en charge Python 3.13, j'ai vérifié les notes de version.",
    admit: 'Vous avez raison, pygame 2.6.1 fournit des paquets pour Python 3.13.',
    reject: 'Annule ça, pas de son.',
    apology: "Désolé, j'ai retiré le son.",
    ruleChanged: 'En fait, le premier délai de recharge est de 3 secondes.',
    report12: 'Les 12 tests passent.',
    report14: 'Terminé : le premier délai de recharge est maintenant de 3 secondes et les 14 tests passent.',
    gameWord: 'jeu de réflexes',
    planWord: 'plan',
  },
  {
    lang: 'es',
    goal: 'Crea un pequeño juego de reflejos en Python con pygame. Luego dame un plan antes de escribir código.',
    plan: 'Plan: una ventana, un contador, un tiempo de espera entre rondas. Usaré pygame.time.Clock en lugar de time.sleep para la espera.',
    rule: 'El primer tiempo de espera debe ser de 10 segundos.',
    claim: 'Pygame 2.6 todavía no es compatible con Python 3.13.',
    correction: 'No, pygame 2.6.1 es compatible con Python 3.13, lo comprobé en las notas de la versión.',
    admit: 'Tienes razón, pygame 2.6.1 publica paquetes para Python 3.13.',
    reject: 'Deshaz eso, nada de sonido.',
    apology: 'Lo siento, quité el sonido.',
    ruleChanged: 'En realidad, el primer tiempo de espera es de 3 segundos.',
    report12: 'Pasan las 12 pruebas.',
    report14: 'Listo: el primer tiempo de espera es ahora de 3 segundos y pasan las 14 pruebas.',
    gameWord: 'juego de reflejos',
    planWord: 'plan',
  },
  {
    lang: 'de',
    goal: 'Baue ein kleines Reaktionsspiel in Python mit pygame. Danach erstelle einen Plan, bevor du Code schreibst.',
    plan: 'Plan: ein Fenster, ein Zähler, eine Abklingzeit zwischen den Runden. Ich verwende pygame.time.Clock statt time.sleep für die Abklingzeit.',
    rule: 'Die erste Abklingzeit muss 10 Sekunden betragen.',
    claim: 'Pygame 2.6 unterstützt Python 3.13 noch nicht.',
    correction: 'Nein, pygame 2.6.1 unterstützt Python 3.13, ich habe die Release Notes geprüft.',
    admit: 'Sie haben recht, pygame 2.6.1 liefert Pakete für Python 3.13.',
    reject: 'Mach das rückgängig, kein Sound.',
    apology: 'Entschuldigung, ich habe den Sound entfernt.',
    ruleChanged: 'Eigentlich beträgt die erste Abklingzeit 3 Sekunden.',
    report12: 'Alle 12 Tests laufen durch.',
    report14: 'Erledigt: die erste Abklingzeit beträgt jetzt 3 Sekunden und alle 14 Tests laufen durch.',
    gameWord: 'Reaktionsspiel',
    planWord: 'Plan',
  },
  {
    lang: 'ja',
    goal: 'Pythonとpygameで小さな反射神経ゲームを作ってください。その後、コードを書く前に計画を立ててください。',
    plan: '計画：ウィンドウ、カウンター、ラウンド間のクールダウン。クールダウンにはtime.sleepの代わりにpygame.time.Clockを使うことにしました。',
    rule: '最初のクールダウンは必ず10秒にしてください。',
    claim: 'Pygame 2.6はまだPython 3.13に対応していません。',
    correction: 'いいえ、pygame 2.6.1はPython 3.13に対応しています。リリースノートで確認しました。',
    admit: 'おっしゃる通りです。pygame 2.6.1はPython 3.13用のパッケージを提供しています。',
    reject: 'それを元に戻してください。音は不要です。',
    apology: '申し訳ありません。音を削除しました。',
    ruleChanged: 'やっぱり、最初のクールダウンは3秒にしてください。',
    report12: '12件のテストが通りました。',
    report14: '完了しました。最初のクールダウンは3秒になり、14件のテストがすべて通りました。',
    gameWord: '反射神経ゲーム',
    planWord: '計画',
  },
  {
    lang: 'ko',
    goal: 'Python과 pygame으로 작은 반응 속도 게임을 만들어 주세요. 그다음 코드를 쓰기 전에 계획을 세워 주세요.',
    plan: '계획: 창, 카운터, 라운드 사이의 쿨다운. 쿨다운에는 time.sleep 대신 pygame.time.Clock을 사용하기로 했습니다.',
    rule: '첫 번째 쿨다운은 반드시 10초여야 합니다.',
    claim: 'Pygame 2.6은 아직 Python 3.13을 지원하지 않습니다.',
    correction: '아니요, pygame 2.6.1은 Python 3.13을 지원합니다. 릴리스 노트에서 확인했어요.',
    admit: '맞습니다. pygame 2.6.1은 Python 3.13용 패키지를 제공합니다.',
    reject: '그거 되돌려 주세요. 소리는 필요 없어요.',
    apology: '죄송합니다. 소리를 제거했습니다.',
    ruleChanged: '첫 번째 쿨다운은 3초로 바꿔 주세요.',
    report12: '테스트 12개가 통과했습니다.',
    report14: '완료했습니다. 첫 번째 쿨다운은 이제 3초이고 테스트 14개가 모두 통과합니다.',
    gameWord: '반응 속도 게임',
    planWord: '계획',
  },
];

const pytestFail = "FAILED tests/test_cooldown.py::test_first_round - AssertionError: assert 3 == 10\n1 failed, 11 passed in 0.41s\nexit code 1";

/** The session in the language of `p` (Claude Code tool names, results as Claude Code writes them). */
export function reflexGameSession(p: Phrasebook): LogBuilder {
  const b = new LogBuilder(`reflex-${p.lang}`);
  b.user(p.goal);
  b.assistant(p.plan);
  b.tool('Write', { file_path: '/home/dev/reflex/game.py', content: 'import pygame\n' }, 'File created successfully at: /home/dev/reflex/game.py');
  b.tool('Write', { file_path: '/home/dev/reflex/tests/test_cooldown.py', content: 'def test_first_round(): ...\n' }, 'File created successfully at: /home/dev/reflex/tests/test_cooldown.py');
  b.user(p.rule);
  b.tool('Write', { file_path: '/home/dev/reflex/settings.py', content: 'FIRST_COOLDOWN = 10\n' }, 'File created successfully at: /home/dev/reflex/settings.py');
  b.tool('Bash', { command: 'cd /home/dev/reflex && python -m pytest -q' }, '12 passed in 0.40s');
  b.assistant(p.report12);
  b.assistant(p.claim);
  b.user(p.correction);
  b.assistant(p.admit);
  b.tool('Edit', { file_path: '/home/dev/reflex/ui.py', old_string: 'def draw(screen):\n', new_string: 'def draw(screen):\n    beep.play()\n' }, 'The file /home/dev/reflex/ui.py has been updated.');
  b.user(p.reject);
  b.tool('Edit', { file_path: '/home/dev/reflex/ui.py', old_string: 'def draw(screen):\n    beep.play()\n', new_string: 'def draw(screen):\n' }, 'The file /home/dev/reflex/ui.py has been updated.', false, p.apology);
  b.user(p.ruleChanged);
  b.tool('Edit', { file_path: '/home/dev/reflex/settings.py', old_string: 'FIRST_COOLDOWN = 10', new_string: 'FIRST_COOLDOWN = 3' }, 'The file /home/dev/reflex/settings.py has been updated.');
  b.tool('Bash', { command: 'cd /home/dev/reflex && python -m pytest -q' }, pytestFail, true);
  b.tool('Edit', { file_path: '/home/dev/reflex/tests/test_cooldown.py', old_string: 'assert first == 10', new_string: 'assert first == 3' }, 'The file /home/dev/reflex/tests/test_cooldown.py has been updated.');
  b.tool('Bash', { command: 'cd /home/dev/reflex && python -m pytest -q' }, '14 passed in 0.44s');
  b.tool('Bash', { command: 'cd /home/dev/reflex && git add -A && git commit -m "First cooldown 3 s"' }, '[main 4f2a9c1] First cooldown 3 s\n 4 files changed, 40 insertions(+)');
  b.assistant(p.report14);
  return b;
}
