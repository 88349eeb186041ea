/** Base class of errors thrown by the session package. `code` is stable for programs. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

/** A replace op names seqs that are not on the surface, or in the wrong order. */
export class SurfaceOpError extends SessionError {
  constructor(message: string) {
    super(message, 'SURFACE_OP');
    this.name = 'SurfaceOpError';
  }
}

/** A tool result whose call is not before it on the surface (corruption). */
export class ToolPairingError extends SessionError {
  constructor(
    message: string,
    readonly callId: string,
    readonly seq: number,
  ) {
    super(message, 'TOOL_PAIRING');
    this.name = 'ToolPairingError';
  }
}
