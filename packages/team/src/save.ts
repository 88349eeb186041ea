import { Mind, type FrameInput, type SaveResult } from '@hive-mind/mind';
import { cacheMindPath, connectionFor, readTeamFile, type TeamConnection } from './config.js';
import { TeamError } from './errors.js';
import { syncTeam, DEFAULT_SYNC_DEADLINE_MS } from './sync.js';

/** What {@link saveTeamFrame} returns: the mind's result, the stable ids queued, the team and the mind file. */
export type TeamSaveResult = SaveResult & { frameUids: string[]; team: string; mind: string };

/** The connection serving `workspace` (its own, else the one for every workspace). Throws `TeamError` `NOT_CONNECTED`. */
export function requireConnection(workspace?: string, env: NodeJS.ProcessEnv = process.env): TeamConnection {
  const c = connectionFor(readTeamFile(env), workspace !== undefined ? { workspace } : {});
  if (!c) throw new TeamError(`no team connection${workspace !== undefined ? ` for workspace ${workspace}` : ''}: run \`hive-mind team connect URL|SERVICE [--name TEAM]\``, 'NOT_CONNECTED');
  return c;
}

/**
 * Save `input` with scope `team` into the local mind of the connection that serves `workspace` and
 * queue it for the server (`mind save --scope team`, MCP `save_memory`). Opens no network
 * connection. Throws `TeamError` `NOT_CONNECTED`, and what `Mind.save` throws.
 */
export function saveTeamFrame(input: FrameInput, workspace?: string, env: NodeJS.ProcessEnv = process.env): TeamSaveResult {
  const conn = requireConnection(workspace, env);
  const machine = readTeamFile(env).machine;
  const path = cacheMindPath(conn, env);
  const m = Mind.open(path);
  try {
    const { workspace: _w, threadKey: _t, ...rest } = input;
    return { ...m.team(conn.team).save(rest, { member: conn.member, machine }), team: conn.team, mind: path };
  } finally {
    m.close();
  }
}

let running: Promise<void> | undefined;
let again = false;

/**
 * Sync every recorded connection in this process, in the background, bounded by `deadlineMs`
 * (the MCP server after a team save and at start). One sync at a time: a call while one runs asks
 * for one more run after it. Never rejects; failures stay in `team status`.
 */
export function syncSoon(opts: { deadlineMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  const run = async () => {
    do {
      again = false;
      let conns: TeamConnection[] = [];
      try {
        conns = readTeamFile(opts.env).connections;
      } catch {
        return;
      }
      for (const c of conns) await syncTeam(c, { deadlineMs: opts.deadlineMs ?? DEFAULT_SYNC_DEADLINE_MS, env: opts.env }).catch(() => undefined);
    } while (again);
  };
  running = run().finally(() => {
    running = undefined;
  });
  return running;
}
