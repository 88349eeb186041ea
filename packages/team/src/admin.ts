import type pg from 'pg';
import { checkTeamName } from '@hive-mind/mind';

/**
 * Make team `name` on the server (a NOLOGIN role of that name, member of `hive_mind_member`, and a
 * row of `hive_mind.teams`) and grant it to each login role in `members`. Run as the role that ran
 * `team migrate`. Idempotent. Throws the server's error (e.g. permission denied).
 */
export async function createTeam(client: pg.ClientBase, name: string, members: readonly string[] = []): Promise<void> {
  checkTeamName(name);
  await client.query('SELECT hive_mind.create_team($1)', [name]);
  for (const m of members) {
    const ident = (await client.query('SELECT quote_ident($1) AS i', [m])).rows[0].i as string;
    const team = (await client.query('SELECT quote_ident($1) AS i', [name])).rows[0].i as string;
    await client.query(`GRANT ${team} TO ${ident}`);
  }
}
