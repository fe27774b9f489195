export * from './lobby.ts';
export * from './socket.ts';
