export * from './analysis.ts';
export * from './errors.ts';
export * from './links.ts';
export * from './lobby.ts';
export * from './socket.ts';
