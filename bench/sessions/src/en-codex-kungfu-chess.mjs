// English, Codex rollout: an early framing restated (turn-based -> real time), the cooldown rule
// changed (10 s, then the very first cooldown 3 s), an AI opponent and a check indicator the user
// rules out after the agent built them, a correction the agent admits, update_plan whose final
// statuses differ, pytest failing then passing, commits, spawn_agent findings and an interrupted
// agent, a shell-init error in every exec result, dumps beside a large research result, a Codex
// compaction (`compacted` with SUMMARY_PREFIX) in the middle, config.toml printed with AGENTS.md.
import { Script, pathList, stringsDump, configDump } from '../build/script.mjs';

const HOME = '/home/dev';
const P = `${HOME}/code/kungfu-chess`;
const INIT = 'bash: /home/dev/.local/bin/env: No such file or directory';
const ex = (cmd, out, opts = {}) => ({ name: 'exec_command', input: { cmd, workdir: opts.workdir ?? P }, output: `${INIT}\n${out}`, ...opts });
const patch = (body, out) => ({ name: 'apply_patch', custom: true, input: `*** Begin Patch\n${body}\n*** End Patch`, output: out });

export function build() {
  const s = new Script({ id: 'en-codex-kungfu-chess', seed: 21, cwd: HOME, start: '2026-11-25T14:02:11.000Z', model: 'gpt-5-codex' });
  s.user('make a chess game in python with pygame, in ~/code/kungfu-chess (the folder exists, empty git repo)');
  s.tools([ex('cd code/kungfu-chess && git status && ls -la', 'On branch main\n\nNo commits yet\n\nnothing to commit (create/copy files and use "git add" to track)\ntotal 12\ndrwxr-xr-x 3 dev dev 4096 Nov 25 14:01 .\ndrwxr-xr-x 9 dev dev 4096 Nov 25 14:01 ..\ndrwxr-xr-x 7 dev dev 4096 Nov 25 14:01 .git', { workdir: HOME })], 'Checking the folder first.');
  s.tools([ex('cat ~/.codex/config.toml AGENTS.md 2>&1', CONFIG_AND_AGENTS)]);
  s.tools([{ name: 'update_plan', input: { plan: [{ step: 'Board model and legal moves (chess/board.py)', status: 'in_progress' }, { step: 'Turn order and move clock', status: 'pending' }, { step: 'pygame UI: board, drag and drop', status: 'pending' }, { step: 'Computer opponent (minimax, depth 2)', status: 'pending' }, { step: 'Tests', status: 'pending' }] }, output: 'Plan updated' }], 'Plan:');
  s.tools([patch(`*** Add File: chess/board.py\n${BOARD_PY}`, 'Success. Updated the following files:\nA chess/board.py\n')]);
  s.user("to be clear, since you wrote 'turn order' in the plan: it isn't turn-based. it's kung fu chess: both sides move whenever they want, in real time, and a piece that moved is frozen for a cooldown. the cooldown is 10 seconds.");
  s.say('Understood: real time, no turns. Each piece has its own cooldown of 10 seconds after it moves. I will replace the turn order step with per-piece cooldowns.');
  s.tools([{ name: 'update_plan', input: { plan: [{ step: 'Board model and legal moves (chess/board.py)', status: 'completed' }, { step: 'Per-piece cooldown (chess/cooldown.py), no turns', status: 'in_progress' }, { step: 'pygame UI: board, drag and drop', status: 'pending' }, { step: 'Computer opponent (minimax, depth 2)', status: 'pending' }, { step: 'Tests', status: 'pending' }] }, output: 'Plan updated' }]);
  s.tools([patch(`*** Add File: chess/cooldown.py\n${COOLDOWN_PY}`, 'Success. Updated the following files:\nA chess/cooldown.py\n'), patch(`*** Add File: chess/ai.py\n${AI_PY}`, 'Success. Updated the following files:\nA chess/ai.py\n')]);
  s.tools([patch(`*** Add File: chess/ui.py\n${UI_PY}`, 'Success. Updated the following files:\nA chess/ui.py\n')]);
  s.tools([patch(`*** Add File: tests/test_cooldown.py\n${TEST_PY}`, 'Success. Updated the following files:\nA tests/test_cooldown.py\n')]);
  s.tools([ex('python -m pytest -q 2>&1 | tail -15', PYTEST_FAIL, { error: true, exit: 1 })]);
  s.say('Two failures: a pawn move test uses the wrong rank, and `Cooldowns.ready()` compares with `>` where the boundary should be ready. Fixing both.');
  s.tools([patch('*** Update File: chess/cooldown.py\n@@\n-        return now - self._moved_at[square] > self.seconds\n+        return now - self._moved_at[square] >= self.seconds', 'Success. Updated the following files:\nM chess/cooldown.py\n'), patch('*** Update File: tests/test_board.py\n@@\n-    assert board.legal(("e2", "e5"))\n+    assert board.legal(("e2", "e4"))', 'Success. Updated the following files:\nM tests/test_board.py\n')]);
  s.tools([ex('python -m pytest -q 2>&1 | tail -3', '..................                                                       [100%]\n18 passed in 0.41s')]);
  s.tools([ex('pip config list -v; python -m pip list 2>/dev/null | head -250', configDump(24, 220, 'global.', ['For variant \'global\', will try loading \'/etc/pip.conf\'', 'For variant \'user\', will try loading \'/home/dev/.config/pip/pip.conf\'']))]);
  s.tools([ex('git add -A && git commit -qm "Real-time chess: board, per-piece 10 s cooldown, pygame UI, computer opponent" && git log --oneline -1', '5e1b7d2 Real-time chess: board, per-piece 10 s cooldown, pygame UI, computer opponent')]);
  s.say('Committed `5e1b7d2`: 18 tests pass. The game runs with `python -m chess.ui`; white is you, black is the computer opponent (minimax depth 2), and I added an in-check indicator (red king square).');
  s.user("no AI: both colours are controlled by the user (two people at one keyboard+mouse). remove the computer opponent. and there's no check in kung fu chess, you win by capturing the king, so the in-check indicator goes too. also the very first cooldown is 3 seconds instead, so the opening is quick.");
  s.say("Right, I'll remove `chess/ai.py` and the check indicator; both colours are human. The very first cooldown of each piece will be 3 seconds, later ones 10.");
  s.hostSummary('codex', CODEX_SUMMARY);
  s.tools([{ name: 'update_plan', input: { plan: [{ step: 'Board model and legal moves (chess/board.py)', status: 'completed' }, { step: 'Per-piece cooldown (chess/cooldown.py), no turns', status: 'completed' }, { step: 'pygame UI: board, drag and drop', status: 'completed' }, { step: 'Remove the computer opponent and the check indicator', status: 'in_progress' }, { step: 'First cooldown 3 s', status: 'pending' }, { step: 'Tests', status: 'pending' }] }, output: 'Plan updated' }]);
  s.tools([
    { name: 'spawn_agent', input: { agent_type: 'explorer', message: 'Research how to run a pygame loop with per-object timers at 60 fps without drift: pygame.time.get_ticks vs time.monotonic, Clock.tick, and how existing "kung fu chess" clones handle simultaneous moves to the same square. Report concrete recommendations.' }, output: JSON.stringify({ agent_id: 'agt_7f3a91' }) },
    { name: 'spawn_agent', input: { agent_type: 'explorer', message: 'Find a TTF font on this machine that pygame can load for the cooldown numbers, and the SDL2 version pygame links against.' }, output: JSON.stringify({ agent_id: 'agt_2c4e07' }) },
  ], 'Before the pie display: two explorers, timing and drawing research, and a font/SDL check.');
  s.tools([{ name: 'wait', input: { ids: ['agt_7f3a91', 'agt_2c4e07'], timeout_ms: 120000 }, output: JSON.stringify({ status: { agt_7f3a91: { completed: RESEARCH }, agt_2c4e07: 'interrupted' }, timed_out: false }) }]);
  s.tools([ex('find / -name "*.ttf" -not -path "/proc/*" 2>/dev/null | head -400', pathList(22, '/usr/share', 240))]);
  s.tools([ex('strings /usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0 | head -300', stringsDump(23, 300, ['SDL_CreateRGBSurfaceWithFormat', '2.26.5']))]);
  s.tools([ex('git rm -q chess/ai.py && grep -n "ai\\.\\|in_check\\|check_square" chess/*.py', 'chess/ui.py:12:from chess import ai\nchess/ui.py:58:        if self.board.in_check(BLACK) or self.board.in_check(WHITE):\nchess/ui.py:59:            self.draw_check_square()\nchess/ui.py:91:        move = ai.best_move(self.board, BLACK, depth=2)\nchess/board.py:140:    def in_check(self, color):')]);
  s.tools([patch('*** Update File: chess/ui.py\n@@\n-from chess import ai\n@@\n-        if self.board.in_check(BLACK) or self.board.in_check(WHITE):\n-            self.draw_check_square()\n@@\n-        move = ai.best_move(self.board, BLACK, depth=2)\n-        self.try_move(move)', 'Success. Updated the following files:\nM chess/ui.py\n')]);
  s.tools([patch('*** Update File: chess/cooldown.py\n@@\n-    def __init__(self, seconds=10.0):\n-        self.seconds = seconds\n+    def __init__(self, seconds=10.0, first_seconds=3.0):\n+        self.seconds = seconds\n+        self.first_seconds = first_seconds\n+        self._moves = {}', 'Success. Updated the following files:\nM chess/cooldown.py\n')]);
  s.say('I kept `Board.in_check` since move legality uses it to reject moves into check.');
  s.user("no, there is no 'moving into check' either. a king can move next to an attacker and get captured. don't keep in_check for legality.");
  s.say('You are right: in kung fu chess every pseudo-legal move is legal, so `in_check` must not filter moves. Removing it from `legal()` and deleting the method.');
  s.tools([patch('*** Update File: chess/board.py\n@@\n-        return move in self.pseudo_legal(color) and not self._leaves_in_check(move, color)\n+        return move in self.pseudo_legal(color)\n@@\n-    def in_check(self, color):\n-        king = self.king_square(color)\n-        return any(king == to for _, to in self.pseudo_legal(other(color)))', 'Success. Updated the following files:\nM chess/board.py\n')]);
  s.tools([ex('python -m pytest -q 2>&1 | tail -6', 'FAILED tests/test_board.py::test_cannot_move_into_check - AssertionError\nFAILED tests/test_ai.py - ModuleNotFoundError: No module named \'chess.ai\'\n2 failed, 16 passed in 0.38s', { error: true, exit: 1 })]);
  s.tools([ex('git rm -q tests/test_ai.py && sed -i "/def test_cannot_move_into_check/,/^$/d" tests/test_board.py && python -m pytest -q 2>&1 | tail -2', '................                                                         [100%]\n16 passed in 0.35s')]);
  s.tools([patch(`*** Update File: tests/test_cooldown.py\n@@\n+def test_first_cooldown_is_3_seconds():\n+    c = Cooldowns()\n+    c.moved("e2", now=0.0)\n+    assert c.ready("e2", now=3.0)\n+\n+def test_later_cooldowns_are_10_seconds():\n+    c = Cooldowns()\n+    c.moved("e2", now=0.0)\n+    c.moved("e2", now=3.0)\n+    assert not c.ready("e2", now=12.9)\n+    assert c.ready("e2", now=13.0)`, 'Success. Updated the following files:\nM tests/test_cooldown.py\n')]);
  s.tools([ex('python -m pytest -q 2>&1 | tail -2', '..................                                                       [100%]\n18 passed in 0.37s')]);
  s.tools([ex('git add -A && git commit -qm "Two human players, no check, first cooldown 3 s" && git log --oneline -2', 'c9a40e8 Two human players, no check, first cooldown 3 s\n5e1b7d2 Real-time chess: board, per-piece 10 s cooldown, pygame UI, computer opponent')]);
  s.tools([{ name: 'update_plan', input: { plan: [{ step: 'Board model and legal moves (chess/board.py)', status: 'completed' }, { step: 'Per-piece cooldown (chess/cooldown.py), no turns', status: 'completed' }, { step: 'pygame UI: board, drag and drop', status: 'completed' }, { step: 'Remove the computer opponent and the check indicator', status: 'completed' }, { step: 'First cooldown 3 s', status: 'completed' }, { step: 'Tests', status: 'completed' }] }, output: 'Plan updated' }]);
  s.say('Committed `c9a40e8`: 18 tests pass; two human players, no check anywhere, first cooldown 3 s then 10 s.');
  s.user('now draw the cooldown as a shrinking pie over each frozen piece');
  s.tools([ex("grep -n 'def draw_piece' -A 12 chess/ui.py", 'chess/ui.py:70:    def draw_piece(self, square, piece):\nchess/ui.py:71:        x, y = self.to_px(square)\nchess/ui.py:72:        self.screen.blit(self.sprites[piece], (x, y))')], 'Looking at how pieces are drawn.');
  s.say("I'll add `draw_cooldown_pie(square, fraction)` in `chess/ui.py`, called from `draw_piece` with `Cooldowns.remaining_fraction(square, now)`.");
  return { file: 'en-codex-kungfu-chess.jsonl', host: 'codex', script: s, options: { baseInstructions: BASE, developer: DEV } };
}

const BASE = 'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user\'s computer.\n\n## General\n\n- When searching for text or files, prefer using `rg` or `rg --files` respectively because `rg` is much faster than alternatives like `grep`.\n\n## Editing constraints\n\n- Default to ASCII when editing or creating files.\n- Use the apply_patch tool for single-file edits.';
const DEV = '<permissions instructions>\nFilesystem sandboxing defines which files can be read or written. `sandbox_mode` is `workspace-write`: the sandbox permits reading files, and editing files in `cwd` and `writable_roots`.\nApproval policy is currently on-request.\n</permissions instructions>';

const CONFIG_AND_AGENTS = `${INIT}
model = "gpt-5-codex"
model_reasoning_effort = "medium"
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[tui]
notifications = true

[projects."/home/dev/code/kungfu-chess"]
trust_level = "trusted"
# AGENTS.md

- Python 3.12; format with black (line length 100).
- Tests: \`python -m pytest -q\` must pass before every commit.
- No dependencies beyond pygame.`;

const BOARD_PY = `+"""Board model: 8x8 squares, pieces as (color, kind), algebraic squares."""
+WHITE, BLACK = "w", "b"
+
+class Board:
+    def __init__(self):
+        self.squares = initial_position()
+
+    def pseudo_legal(self, color):
+        for square, piece in self.pieces(color):
+            yield from ((square, to) for to in self.targets(square, piece))
+
+    def legal(self, move, color):
+        return move in self.pseudo_legal(color) and not self._leaves_in_check(move, color)`;

const COOLDOWN_PY = `+"""Per-piece cooldowns: a piece that moved is frozen for \`seconds\`."""
+import time
+
+class Cooldowns:
+    def __init__(self, seconds=10.0):
+        self.seconds = seconds
+        self._moved_at = {}
+
+    def moved(self, square, now=None):
+        self._moved_at[square] = time.monotonic() if now is None else now
+
+    def ready(self, square, now=None):
+        now = time.monotonic() if now is None else now
+        if square not in self._moved_at:
+            return True
+        return now - self._moved_at[square] > self.seconds`;

const AI_PY = `+"""Computer opponent: minimax over pseudo-legal moves, material evaluation."""
+def best_move(board, color, depth=2):
+    return max(board.pseudo_legal(color), key=lambda m: -negamax(board.after(m), other(color), depth - 1))`;

const UI_PY = `+"""pygame front end: 640x640 board, drag and drop, 60 fps."""
+import pygame
+from chess import ai
+from chess.board import Board, WHITE, BLACK
+from chess.cooldown import Cooldowns`;

const TEST_PY = `+from chess.cooldown import Cooldowns
+
+def test_piece_is_frozen_for_10_seconds():
+    c = Cooldowns()
+    c.moved("e2", now=0.0)
+    assert not c.ready("e2", now=9.9)
+    assert c.ready("e2", now=10.0)`;

const PYTEST_FAIL = `FAILED tests/test_board.py::test_pawn_double_step - AssertionError: assert False
FAILED tests/test_cooldown.py::test_piece_is_frozen_for_10_seconds - assert False
2 failed, 16 passed in 0.44s`;

const RESEARCH = `Findings (pygame timing and simultaneous moves):

1. Timing source. Use time.monotonic() for cooldown bookkeeping, not pygame.time.get_ticks(): get_ticks() is milliseconds since pygame.init() and is fine for frame timing, but monotonic() is unaffected by pausing the event loop and is trivially testable (inject \`now\`). pygame.time.Clock().tick(60) caps the frame rate; do not derive game time from the sum of tick() return values (it drifts by the rounding of each frame, about 0.5 ms per frame, ~1.8 s per hour).
2. Loop shape. Process all events first (pygame.event.get()), then update state with one \`now = time.monotonic()\` per frame, then draw. Reading the clock once per frame keeps every piece's readiness consistent within a frame.
3. Simultaneous moves. Real-time chess clones (e.g. the open-source "kfchess" server) resolve two moves to the same square by arrival order on the server; locally with one shared mouse there is only one input stream, so the problem reduces to: a move whose target becomes occupied by an own piece during the drag is cancelled; a capture of a piece that is mid-move is allowed. kfchess also animates moves over 1 s (pieces are capturable in transit); that is optional and can come later.
4. Cooldown display. The usual visual is a pie or a bar over the frozen piece; pygame.draw.arc is aliased at small sizes, so draw a polygon of ~32 points from the centre (fraction = remaining/seconds) onto a SRCALPHA surface and blit it.
5. Input. With two players on one machine, both use the same mouse: a piece can be picked up only if it belongs to either colour and is ready; there is no "current player".
6. Testing. Keep Cooldowns free of pygame; test with explicit \`now\` values (0.0, 9.9, 10.0); assert the boundary (exactly \`seconds\` later is ready).`;

const CODEX_SUMMARY = `Project: kungfu-chess at /home/dev/code/kungfu-chess, a real-time chess game (kung fu chess) in Python with pygame; run with \`python -m chess.ui\`.
- Not turn-based: both sides move whenever a piece is off cooldown; each piece is frozen after it moves (chess/cooldown.py, Cooldowns, time.monotonic, injectable now).
- Cooldown 10 s per piece; the user has just asked that the very first cooldown be 3 s instead.
- The user ruled out the computer opponent (no AI: both colours are controlled by the user) and the in-check indicator (no check in kung fu chess; capturing the king wins). chess/ai.py and the red king square must go.
- Done: commit 5e1b7d2 (board, cooldowns, UI, opponent); 18 tests passed with python -m pytest -q.
- AGENTS.md: black (line length 100), python -m pytest -q before every commit, no dependencies beyond pygame.
- Next: remove the opponent and the check indicator, implement the 3 s first cooldown, test, commit.`;
