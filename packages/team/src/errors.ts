/**
 * Error of the team package (team.json itself is read by the mind: `MindError` `INVALID` naming the
 * file and field). `code`: `CONFIG` (a libpq service file does not define the service), `INVALID` (bad input: exit 2), `NOT_CONNECTED` (no connection recorded for this
 * workspace), `SERVER` (the server refused or failed: its message is kept), `UNREACHABLE` (no
 * connection could be made in time: the outbox keeps everything).
 */
export type TeamErrorCode = 'CONFIG' | 'INVALID' | 'NOT_CONNECTED' | 'SERVER' | 'UNREACHABLE';

export class TeamError extends Error {
  readonly exitCode: number;
  constructor(
    message: string,
    readonly code: TeamErrorCode,
  ) {
    super(message);
    this.name = 'TeamError';
    this.exitCode = code === 'INVALID' || code === 'NOT_CONNECTED' ? 2 : 1;
  }
}
