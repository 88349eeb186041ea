/**
 * The launcher hosts run instead of an absolute `<node> <bin>` pair: a POSIX `sh` script that
 * finds the hive-mind CLI at run time, so a Node upgrade or a moved checkout does not break the
 * hooks. One text serves both uses:
 * - `hive-mind install HOST` writes it to `<hive-mind home>/bin/run-hive-mind` with the node and
 *   CLI it ran with recorded (`HM_NODE`, `HM_CLI`), tried first, then the run-time search;
 * - the host plugins ship it with nothing recorded (plugins/claude-code and plugins/codex
 *   `scripts/run-hive-mind`; test/plugins.test.ts checks they are this text).
 * Without a CLI, a hook prints one line saying what is missing and how to install it (stderr and
 * `<hive-mind home>/logs/hooks.log`; SessionStart also as `systemMessage`) and exits 0.
 */
import { shQuote } from './command.js';

/**
 * How to get a `hive-mind` command, said the same way by the launcher, `status`, the READMEs and
 * the plugin manifests: no package of hive-mind is on the npm registry, so it comes from a
 * checkout; `--prefix ~/.local` needs no root (Debian's `~/.profile` puts `~/.local/bin` on PATH)
 * and links the checkout, so the checkout must stay where it is.
 */
export const CLI_INSTALL = 'npm ci && npm install -g --prefix ~/.local ./packages/cli';

/** The fix a message gives when no CLI is found: {@link CLI_INSTALL}, where to run it, and the alternative. */
export const CLI_INSTALL_FIX = `install it from a hive-mind checkout with \`${CLI_INSTALL}\` (the command lands in ~/.local/bin), or set HIVE_MIND_CLI to its bin/hive-mind.js`;

/** The node and CLI an install recorded: absolute paths (`process.execPath`, the real path of bin/hive-mind.js). */
export interface LauncherRecord {
  node: string;
  cli: string;
}

/** The launcher script; `record` (from an install) puts its node and CLI first. */
export function launcherScript(record?: LauncherRecord): string {
  const node = record ? shQuote(record.node) : "''";
  const cli = record ? shQuote(record.cli) : "''";
  return `#!/bin/sh
# run-hive-mind: runs the hive-mind CLI for a host's hook or MCP server, finding it at run time,
# so a Node upgrade or a moved checkout does not break the host's hooks. Written by hive-mind
# (packages/hooks/src/install/launcher.ts). The first that exists wins:
#   1. $HIVE_MIND_CLI: the CLI to run (an executable, or a .js file run with \`node\`)
#   2. the CLI \`hive-mind install\` recorded below, with the node it recorded, else \`node\` on PATH
#   3. \`hive-mind\` on PATH, else ~/.local/bin/hive-mind (from a checkout: \`${CLI_INSTALL}\`)
#   4. node_modules/.bin/hive-mind in the project directory or one of its parents
#      ($CLAUDE_PROJECT_DIR, else the working directory: a project that depends on hive-mind)
# When none does: for \`hook HOST EVENT\` it prints one line saying what is missing and how to
# install it to stderr, appends it to <hive-mind home>/logs/hooks.log, prints the host's empty
# answer (SessionStart: a \`systemMessage\` for the user) and exits 0, since a hook never breaks
# its host; for any other command it exits 127.
HM_NODE=${node}
HM_CLI=${cli}

hm_exec() {
  case "$1" in
    *.js) hm_cli=$1; shift; exec node "$hm_cli" "$@" ;;
    *) exec "$@" ;;
  esac
}

hm_missing=
if [ -n "\${HIVE_MIND_CLI:-}" ]; then
  if [ -f "$HIVE_MIND_CLI" ]; then hm_exec "$HIVE_MIND_CLI" "$@"; fi
  hm_missing="HIVE_MIND_CLI=$HIVE_MIND_CLI does not exist"
fi
if [ -z "$hm_missing" ] && [ -n "$HM_CLI" ]; then
  if [ -f "$HM_CLI" ]; then
    if [ -x "$HM_NODE" ]; then exec "$HM_NODE" "$HM_CLI" "$@"; fi
    if command -v node >/dev/null 2>&1; then exec node "$HM_CLI" "$@"; fi
    hm_missing="node $HM_NODE (recorded by hive-mind install) is gone and no node is on PATH"
  else
    hm_missing="the hive-mind CLI recorded by hive-mind install ($HM_CLI) is gone"
  fi
fi
if [ -z "\${HIVE_MIND_CLI:-}" ] && ! command -v node >/dev/null 2>&1; then
  # an npm-installed hive-mind is a node script: without node it cannot run
  case "$hm_missing" in *"no node is on PATH"*) ;; *) hm_missing="\${hm_missing:+$hm_missing, and }no node is on PATH" ;; esac
elif [ -z "\${HIVE_MIND_CLI:-}" ]; then
  if command -v hive-mind >/dev/null 2>&1; then exec hive-mind "$@"; fi
  if [ -n "\${HOME:-}" ] && [ -x "$HOME/.local/bin/hive-mind" ]; then exec "$HOME/.local/bin/hive-mind" "$@"; fi
  hm_dir=\${CLAUDE_PROJECT_DIR:-$PWD}
  while [ -n "$hm_dir" ]; do
    if [ -x "$hm_dir/node_modules/.bin/hive-mind" ]; then exec "$hm_dir/node_modules/.bin/hive-mind" "$@"; fi
    [ "$hm_dir" = / ] && break
    hm_dir=$(dirname -- "$hm_dir")
  done
  hm_missing="\${hm_missing:+$hm_missing, and }the hive-mind CLI is not on PATH, in ~/.local/bin nor in the project's node_modules"
fi

case "$hm_missing" in
  *"no node is on PATH"*) hm_fix='put node on PATH (Node.js 20 or later)' ;;
  *) hm_fix='${CLI_INSTALL_FIX}' ;;
esac
if [ -n "$HM_CLI" ] && [ "\${1:-}" = hook ]; then hm_fix="$hm_fix, then run \\\`hive-mind install \${2:-HOST}\\\` again"; fi
hm_line="hive-mind: $hm_missing; $hm_fix"
printf '%s\\n' "$hm_line" >&2
if [ "\${1:-}" = hook ]; then
  hm_home=\${HIVE_MIND_HOME:-\${HOME:-/tmp}/.hive-mind}
  if mkdir -p "$hm_home/logs" 2>/dev/null; then
    printf '%s %s %s: %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "\${2:-?}" "\${3:-?}" "$hm_line" >>"$hm_home/logs/hooks.log" 2>/dev/null
  fi
  # drain the payload so the host's write never blocks
  cat >/dev/null 2>&1
  if [ "\${3:-}" = SessionStart ]; then
    # shown to the user by Claude Code and Codex (hook output field \`systemMessage\`), not to the model
    printf '{"systemMessage":"%s"}\\n' "$(printf '%s' "$hm_line" | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g')"
  fi
  exit 0
fi
exit 127
`;
}

/** Whether `text` is a launcher of ours (its first two lines). */
export function isLauncher(text: string): boolean {
  return text.startsWith('#!/bin/sh\n# run-hive-mind:');
}

/** The node and CLI recorded in a launcher's text, or undefined when it records none (a plugin's copy) or is not ours. */
export function launcherRecord(text: string): LauncherRecord | undefined {
  if (!isLauncher(text)) return undefined;
  const node = /^HM_NODE=(.*)$/m.exec(text)?.[1];
  const cli = /^HM_CLI=(.*)$/m.exec(text)?.[1];
  if (!node || !cli || cli === "''") return undefined;
  return { node: shUnquote(node), cli: shUnquote(cli) };
}

/** The inverse of {@link shQuote} for one word. */
export function shUnquote(word: string): string {
  let out = '';
  for (const m of word.matchAll(/'([^']*)'|\\(.)|([^'\\]+)/g)) out += m[1] ?? m[2] ?? m[3] ?? '';
  return out;
}
