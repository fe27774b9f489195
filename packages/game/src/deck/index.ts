export * from './built-in.ts';
export * from './deck.ts';
export * from './schema.ts';
