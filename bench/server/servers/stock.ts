/**
 * The anchor: stock boardgame.io 0.50.2 `Server()` with its default in-memory storage,
 * serving a trivial game (one move per turn that bumps a counter). Its lobby works only
 * with koa-compose 4.1.0 under boardgame.io's Koa 2 (the root package.json override).
 */
import { createRequire } from 'node:module';
import type { Game } from 'boardgame.io';

// Node's ESM loader cannot import boardgame.io/server (a directory entry); its CJS build can.
const { Server } = createRequire(import.meta.url)(
  'boardgame.io/server',
) as typeof import('boardgame.io/server');

export const TrivialGame: Game<{ bumps: number }> = {
  name: 'trivial',
  setup: () => ({ bumps: 0 }),
  moves: {
    bump: ({ G }) => {
      G.bumps += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
};

const server = Server({ games: [TrivialGame], origins: ['http://127.0.0.1'] });
const { appServer } = await server.run(Number(process.env.PORT ?? 0));
const address = appServer.address();
console.log(`BENCH_PORT ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => process.exit(0));
