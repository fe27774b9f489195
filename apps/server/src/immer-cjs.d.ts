/** immer's CommonJS entry, the build boardgame.io requires (see reducer/plain-moves.ts): the API of 'immer'. */
declare module 'immer/dist/index.js' {
  export * from 'immer';
}
