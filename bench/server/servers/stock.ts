/**
 * The anchors: stock boardgame.io 0.50.2 `Server()` with its default in-memory storage,
 * serving either a trivial game (one move per turn that bumps a counter; `stock`) or our
 * Iron Curtain Game (`stock-ic`, BENCH_STOCK_GAME=iron-curtain). Its lobby works only
 * with koa-compose 4.1.0 under boardgame.io's Koa 2 (the root package.json override).
 */
import { createRequire } from 'node:module';
import type { Game } from 'boardgame.io';
import { IronCurtainGame } from '../lib/iron-curtain.ts';

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

const GAMES: Record<string, Game> = {
  trivial: TrivialGame as Game,
  'iron-curtain': IronCurtainGame as Game,
};
const name = process.env.BENCH_STOCK_GAME ?? 'trivial';
const game = GAMES[name];
if (!game)
  throw new Error(
    `BENCH_STOCK_GAME: unknown game '${name}' (known: ${Object.keys(GAMES).join(', ')})`,
  );

const server = Server({ games: [game], origins: ['http://127.0.0.1'] });
const { appServer } = await server.run(Number(process.env.PORT ?? 0));
const address = appServer.address();
console.log(`BENCH_PORT ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => process.exit(0));
