import { lobbyErrorCodes } from './lobby.ts';
import { refusalCodes } from './socket.ts';

/** Every error code a client can be answered with, lobby and game service: each needs a text. */
export const errorCodes = [...new Set([...refusalCodes, ...lobbyErrorCodes])];
