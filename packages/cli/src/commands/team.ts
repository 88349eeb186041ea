import type { Command } from 'commander';
import { CliError, printJson } from '../errors.js';

/**
 * `hive-mind team connect|status|disconnect|sync|migrate|search|create`: the team mind on a
 * PostgreSQL server (@hive-mind/team, loaded only by these commands). Every subcommand takes
 * `--workspace ID` (the connection of that workspace, else the one for every workspace) and `--json`.
 */

type Team = typeof import('@hive-mind/team');
const loadTeam = (): Promise<Team> => import('@hive-mind/team');

interface Common {
  workspace?: string;
  json?: boolean;
}

async function connectionOf(t: Team, o: Common) {
  const c = t.connectionFor(t.readTeamFile(), o.workspace !== undefined ? { workspace: o.workspace } : {});
  if (!c) throw new CliError(`no team connection${o.workspace !== undefined ? ` for workspace ${o.workspace}` : ''}: run \`hive-mind team connect URL|SERVICE [--name TEAM]\``, 2);
  return c;
}

function countArg(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new CliError(`${name} must be a positive integer, got ${JSON.stringify(v)}`, 2);
    return n;
  };
}

export function register(program: Command): void {
  const team = program
    .command('team')
    .description('the team mind on a PostgreSQL server: connect, status, sync, search, migrate, disconnect');
  const common = (c: Command) =>
    c.option('--workspace <id>', 'the connection of this workspace (default: the one for every workspace)').option('--json', 'print the result as JSON');

  common(
    team
      .command('connect')
      .description('record the team server (a postgres:// URL without password, or a libpq service name); the password comes from PGPASSFILE, a service file or PGPASSWORD')
      .argument('<target>', 'postgres://user@host:port/db, or a service name from pg_service.conf')
      .option('--name <team>', 'the team (default: the one team the login role belongs to)'),
  ).action(async (target: string, o: Common & { name?: string }) => {
    const t = await loadTeam();
    const conn = t.isUrl(target) ? { url: target } : { service: target };
    if (conn.url) t.refusePassword(conn.url);
    else t.readService(target); // fails now, naming the files, when the service is not defined
    let name = o.name;
    let member = t.memberOf(conn);
    let note = '';
    try {
      const client = await t.connect(conn);
      try {
        member = (await client.query('SELECT session_user AS u')).rows[0].u;
        const version = await t.serverSchemaVersion(client);
        if (version < 1) note = 'the server has no team schema yet: run `hive-mind team migrate` as its owner';
        else {
          const teams = (await client.query('SELECT hive_mind.my_teams() AS t')).rows.map((r) => r.t as string);
          if (!name) {
            if (teams.length !== 1) throw new CliError(`${member} belongs to ${teams.length ? `teams ${teams.join(', ')}` : 'no team'} on this server: give --name TEAM`, 2);
            name = teams[0];
          } else if (!teams.includes(name)) note = `${member} is not a member of team ${name} on this server yet; pushes are refused until it is`;
        }
      } finally {
        await client.end().catch(() => undefined);
      }
    } catch (e) {
      if (e instanceof CliError) throw e;
      const unreachable = (e as { code?: string }).code === 'UNREACHABLE';
      if (!name) throw new CliError(`${(e as Error).message}; give --name TEAM to record the connection ${unreachable ? 'while the server is unreachable' : 'anyway'}`, 1);
      note = unreachable
        ? `the server is not reachable now (${(e as Error).message}); saves queue in the outbox until \`hive-mind team sync\` reaches it`
        : `the server refused ${member}: ${t.describeError(e)}; saves queue in the outbox until the server's owner adds ${member} to team ${name}`;
    }
    t.addConnection({ team: name!, ...conn, member, ...(o.workspace !== undefined ? { workspace: o.workspace } : {}) });
    const c = t.connectionFor(t.readTeamFile(), o.workspace !== undefined ? { workspace: o.workspace } : {})!;
    if (o.json) return printJson({ connection: c, note: note || undefined, file: t.teamFilePath() });
    process.stdout.write(
      `connected ${o.workspace !== undefined ? `workspace ${o.workspace}` : 'every workspace'} to team ${c.team} as ${member} (${c.url ?? `service ${c.service}`}); team frames live in ${t.cacheMindPath(c)}\n` +
        (note ? `note: ${note}\n` : ''),
    );
  });

  common(team.command('status').description('how many frames wait to be pushed and why, the pull cursor, and the server').option('--offline', 'do not contact the server')).action(
    async (o: Common & { offline?: boolean }) => {
      const t = await loadTeam();
      const conn = await connectionOf(t, o);
      const { mind, local } = t.openLocal(conn);
      let st;
      let lastSync: string | undefined;
      let lastError: string | undefined;
      try {
        st = local.status();
        lastSync = local.state('last_sync');
        lastError = local.state('last_error') || undefined;
      } finally {
        mind.close();
      }
      const server = o.offline ? undefined : await t.serverStatus(conn, st.cursor);
      if (o.json) return printJson({ team: conn.team, connection: conn, mind: t.cacheMindPath(conn), outbox: st, lastSync: lastSync ?? null, lastError: lastError ?? null, server: server ?? null });
      const lines = [
        `team ${conn.team} as ${conn.member} via ${conn.url ?? `service ${conn.service}`} (${conn.workspace !== undefined ? `workspace ${conn.workspace}` : 'every workspace'})`,
        `local: ${st.frames} team frames in ${t.cacheMindPath(conn)}; pulled up to event ${st.cursor}; last sync ${lastSync ?? 'never'}`,
        `outbox: ${st.pending} waiting to be pushed${st.oldestPending ? ` (oldest from ${st.oldestPending})` : ''}, ${st.rejected} refused by the server, ${st.held} held on this machine`,
        ...st.reasons.map((r) => `  ${r.count} ${r.state}: ${r.reason}`),
        ...(lastError ? [`last error: ${lastError}`] : []),
        server === undefined
          ? 'server: not contacted (--offline)'
          : server.reachable
            ? `server: reachable as ${server.member}, schema v${server.schemaVersion}${server.toPull !== undefined ? `, ${server.toPull} events to pull, ${server.frames} live frames` : ''}`
            : `server: unreachable (${server.error})`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
    },
  );

  common(
    team
      .command('sync')
      .description('push the outbox, then pull what the team wrote since the last pull (bounded in time)')
      .option('--timeout <seconds>', 'stop starting new batches after this long', countArg('--timeout'), 30)
      .option('--all', 'every recorded connection')
      .option('--retry-rejected', 'queue frames the server refused again before pushing')
      .option('--quiet', 'print nothing (the background sync of the hooks and the MCP server)'),
  ).action(async (o: Common & { timeout: number; all?: boolean; retryRejected?: boolean; quiet?: boolean }) => {
    const t = await loadTeam();
    const conns = o.all ? t.readTeamFile().connections : [await connectionOf(t, o)];
    const reports = [];
    for (const conn of conns) {
      if (o.retryRejected) {
        const { mind, local } = t.openLocal(conn);
        try {
          local.retryRejected();
        } finally {
          mind.close();
        }
      }
      reports.push(await t.syncTeam(conn, { deadlineMs: o.timeout * 1000 }));
    }
    const failed = reports.filter((r) => r.error);
    if (failed.length) process.exitCode = 1;
    if (o.quiet) return;
    if (o.json) return printJson(o.all ? { reports } : reports[0]);
    for (const r of reports) {
      const p = r.pulled;
      process.stdout.write(
        `team ${r.team}: pushed ${r.pushed}${r.alreadyOnServer ? ` (+${r.alreadyOnServer} the server had already)` : ''}, pulled ${p.saved} new${p.duplicates ? `, ${p.duplicates} already known` : ''}${p.quarantined ? `, ${p.quarantined} quarantined by the threat scan` : ''}${p.forgotten ? `, ${p.forgotten} forgotten` : ''}; ${r.outbox.pending} waiting, ${r.outbox.rejected} refused${r.complete ? '' : ' (incomplete: run it again)'}\n`,
      );
      for (const x of r.rejected) process.stdout.write(`  refused ${x.op} ${x.frameUid}: ${x.reason}\n`);
      if (r.error) process.stderr.write(`hive-mind: team ${r.team}: ${r.error}\n`);
    }
  });

  common(team.command('disconnect').description('forget the connection (the team frames and the outbox stay in the local mind)')).action(async (o: Common) => {
    const t = await loadTeam();
    const c = t.removeConnection(o.workspace !== undefined ? { workspace: o.workspace } : {});
    if (!c) throw new CliError(`no team connection${o.workspace !== undefined ? ` for workspace ${o.workspace}` : ''}`, 1);
    if (o.json) return printJson({ disconnected: c });
    process.stdout.write(`disconnected from team ${c.team}; its frames and any waiting outbox stay in ${t.cacheMindPath(c)} (connect again to send them)\n`);
  });

  common(
    team
      .command('migrate')
      .description('create or upgrade the team schema on the server (safe to run twice, and by several members at once)')
      .argument('[target]', 'a URL or service name (default: the recorded connection)')
      .option('--create-team <name>', 'also make this team (a role) on the server')
      .option('--member <role...>', 'grant the team to these login roles (with --create-team)'),
  ).action(async (target: string | undefined, o: Common & { createTeam?: string; member?: string[] }) => {
    const t = await loadTeam();
    const conn = target ? (t.isUrl(target) ? (t.refusePassword(target), { url: target }) : { service: target }) : await connectionOf(t, o);
    const client = await t.connect(conn);
    try {
      const r = await t.migrateServer(client);
      if (o.createTeam) await t.createTeam(client, o.createTeam, o.member ?? []);
      if (o.json) return printJson({ ...r, createdTeam: o.createTeam ?? null });
      process.stdout.write(
        `${r.applied.length ? `server schema v${r.from} -> v${r.to} (applied ${r.applied.join(', ')})` : `server schema already at v${r.to}`}${o.createTeam ? `; team ${o.createTeam} ready${o.member?.length ? ` for ${o.member.join(', ')}` : ''}` : ''}\n`,
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  common(
    team
      .command('search')
      .description("search the team's frames on the server (full text, and trigrams for paths and identifiers)")
      .argument('<query>', 'words, "phrases", paths, identifiers')
      .option('--limit <n>', 'maximum results', countArg('--limit'), 10),
  ).action(async (query: string, o: Common & { limit: number }) => {
    const t = await loadTeam();
    const hits = await t.searchTeam(await connectionOf(t, o), query, { limit: o.limit });
    if (o.json) return printJson({ results: hits });
    if (!hits.length) return void process.stdout.write('no results\n');
    for (const h of hits) {
      const text = h.content.replace(/\s+/g, ' ');
      process.stdout.write(`${h.frameUid.slice(0, 8)} [${h.importance} ${h.kind} · ${h.member}@${h.machine}${h.host ? ` · ${h.host}` : ''} · ${h.createdAt.slice(0, 10)}] ${text.length > 160 ? text.slice(0, 159) + '…' : text}\n`);
    }
  });
}
