// The analysis's shapes are imported from '@iron-curtain/protocol/analysis': schemas are code, and
// the match page's first download carries none of them.
export * from './accounts.ts';
export * from './chat.ts';
export * from './errors.ts';
export * from './links.ts';
export * from './lobby.ts';
export * from './match-id.ts';
export * from './my-games.ts';
export * from './plain-text.ts';
export * from './profiles.ts';
export * from './push.ts';
export * from './routes.ts';
export * from './socket.ts';
