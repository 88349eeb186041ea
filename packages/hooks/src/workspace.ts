import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { personalMindPath, workspaceMindPath } from '@hive-mind/mind/paths';
import type { LifecycleInput } from './types.js';

/**
 * The workspace a hook event belongs to: the nearest ancestor of `dir` (inclusive)
 * holding a `.git` entry (directory or file: worktrees and submodules), else `dir`
 * itself; symlinks resolved when the path exists. Returns undefined for a missing or
 * relative `dir` (never guesses from the hook process's own cwd).
 */
export function workspaceOf(dir: string | undefined): string | undefined {
  if (!dir || !isAbsolute(dir)) return undefined;
  let start = resolve(dir);
  try {
    start = realpathSync(start);
  } catch {
    return start;
  }
  let cur = start;
  for (let i = 0; i < 64; i++) {
    if (existsSync(resolve(cur, '.git'))) return cur;
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return start;
}

/** Paths of the minds an event touches. `workspace` is undefined when the event has no absolute cwd. */
export function mindsFor(input: LifecycleInput, env: NodeJS.ProcessEnv): { workspace?: { id: string; path: string }; personal: string } {
  const root = input.workspaceRoots?.find((r) => typeof r === 'string' && r.length > 0) ?? input.cwd;
  const id = workspaceOf(root);
  return { workspace: id ? { id, path: workspaceMindPath(id, env) } : undefined, personal: personalMindPath(env) };
}
