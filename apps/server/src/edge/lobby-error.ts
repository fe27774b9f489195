/** A lobby failure with its HTTP status and a stable code for the client. */
export class LobbyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Each bad field of a refused upload. */
    readonly issues?: { path: string; message: string }[],
    /** NAME_TOO_CLOSE: the existing name the one asked for looks like. */
    readonly similarTo?: string,
  ) {
    super(message);
    this.name = 'LobbyError';
  }
}
