/**
 * What is stale in an installed hook command: the paths `hive-mind install` wrote or recorded
 * that no longer exist (a Node upgrade removes the old node; a moved or deleted checkout removes
 * the CLI), what the hooks fall back to at run time, and the command that fixes it. Used by
 * `verify` (a `(paths)` entry per problem, a note per working fallback).
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HostId } from '../types.js';
import { CLI_INSTALL, launcherRecord, shUnquote } from './launcher.js';

/** One command's health: `problems` (the hooks cannot run as installed) and `notes` (they run through a fallback). */
export interface CommandHealth {
  problems: string[];
  notes: string[];
}

/** The words of a command as `sh` splits our quoting (single quotes, backslashes, plain words). */
function shWords(command: string): string[] {
  return (command.match(/(?:'[^']*'|\\.|[^\s'\\])+/g) ?? []).map(shUnquote);
}

/** The first executable `name` on `PATH`, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const d of (env.PATH ?? '').split(delimiter)) {
    if (!d) continue;
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The `hive-mind` the launcher falls back to outside a project: the first on `PATH`, else
 * `$HOME/.local/bin/hive-mind` (where {@link CLI_INSTALL} puts it, which a host started outside a
 * login shell may not have on its PATH); undefined when neither is executable.
 */
export function globalCli(env: NodeJS.ProcessEnv): string | undefined {
  const found = onPath('hive-mind', env);
  if (found || !env.HOME) return found;
  const local = join(env.HOME, '.local', 'bin', 'hive-mind');
  try {
    accessSync(local, constants.X_OK);
    return local;
  } catch {
    return undefined;
  }
}

/**
 * Check the paths in one installed hook command of `host`: the launcher
 * (`<…>/run-hive-mind hook …`, with the node and CLI it recorded) or an older absolute
 * `<node> <…/hive-mind.js> hook …`. A command of another shape (`hive-mind hook …` on PATH, a
 * custom `--command`) has nothing recorded to go stale.
 */
export function commandHealth(command: string, host: HostId, env: NodeJS.ProcessEnv = process.env, launcher = '<hive-mind home>/bin/run-hive-mind'): CommandHealth {
  const out: CommandHealth = { problems: [], notes: [] };
  const fix = `run \`hive-mind install ${host}\` with the hive-mind you use now`;
  const words = shWords(command);
  const [first, second] = words;
  if (!first || !isAbsolute(first)) return out;
  const fallback = globalCli(env);
  const nodeOnPath = onPath('node', env);
  if (/\/run-hive-mind$/.test(first)) {
    if (!existsSync(first)) {
      out.problems.push(`the launcher ${first} is gone, so these hooks cannot run; ${fix}`);
      return out;
    }
    let record;
    try {
      record = launcherRecord(readFileSync(first, 'utf8'));
    } catch {
      record = undefined;
    }
    if (!record) return out;
    if (!existsSync(record.cli)) {
      const why = `the hive-mind CLI recorded at install, ${record.cli}, no longer exists (a moved checkout or a removed package)`;
      if (fallback) out.notes.push(`${why}; the hooks run ${fallback} instead; ${fix} to record it`);
      else out.problems.push(`${why} and no hive-mind is on PATH: the hooks do nothing but log it; ${fix} (or \`${CLI_INSTALL}\` in a hive-mind checkout)`);
    } else if (!existsSync(record.node)) {
      const why = `node ${record.node}, recorded at install, no longer exists (a Node upgrade?)`;
      if (nodeOnPath) out.notes.push(`${why}; the hooks run the CLI with ${nodeOnPath} from PATH instead; ${fix} to record it`);
      else out.problems.push(`${why} and no node is on PATH: the hooks do nothing but log it; ${fix}`);
    }
    return out;
  }
  // an install before the launcher: `<node> <bin> hook <host> <event>`, both absolute
  const through = `it writes the hooks through the launcher ${launcher}, which survives the next Node upgrade or move`;
  if (!existsSync(first)) out.problems.push(`${first}, the node these hooks run, no longer exists (a Node upgrade?), so they fail; ${fix}: ${through}`);
  if (second && isAbsolute(second) && /\.js$/.test(second) && !existsSync(second)) out.problems.push(`${second}, the hive-mind CLI these hooks run, no longer exists (a moved checkout or a removed package), so they fail; ${fix}: ${through}`);
  return out;
}
