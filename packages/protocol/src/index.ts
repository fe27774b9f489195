export * from './chat.ts';
export * from './errors.ts';
export * from './links.ts';
export * from './lobby.ts';
export * from './routes.ts';
export * from './socket.ts';
