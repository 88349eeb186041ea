/**
 * @hive-mind/team: the team mind on a PostgreSQL server (README "Team mind" of @hive-mind/mind):
 * connections (`<home>/team.json`), the server schema and its migrations, push/pull sync of the
 * local outbox and cache (`@hive-mind/mind` team-local.ts), team search on the server.
 * Importing it loads `pg`; the mind and the hooks never import it.
 */
export { TeamError, type TeamErrorCode } from './errors.js';
export {
  DEFAULT_SYNC_AGE_MIN,
  addConnection,
  removeConnection,
  connectionFor,
  cacheMindPath,
  readTeamFile,
  writeTeamFile,
  teamFilePath,
  refusePassword,
  isUrl,
  type TeamConnection,
  type TeamFile,
} from './config.js';
export { connect, clientConfig, readService, memberOf, isUnreachable, describeError, CONNECT_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from './client.js';
export { migrateServer, serverSchemaVersion, SERVER_MIGRATIONS, SERVER_SCHEMA_VERSION, SERVER_MAX_CONTENT_CHARS, MIGRATE_LOCK_KEY, type MigrateReport } from './server-schema.js';
export {
  syncTeam,
  pushOutbox,
  pullEvents,
  searchTeam,
  serverStatus,
  openLocal,
  touchSyncStamp,
  SYNC_BATCH,
  DEFAULT_SYNC_DEADLINE_MS,
  type SyncOptions,
  type SyncReport,
  type TeamSearchHit,
  type ServerStatus,
} from './sync.js';
export { createTeam } from './admin.js';
export { saveTeamFrame, requireConnection, syncSoon, type TeamSaveResult } from './save.js';
