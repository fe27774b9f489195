import {
  applyMove,
  createState,
  draftPlacements,
  legalMoves,
  MAX_DRAFTED_CUBES,
  MOVE_ARGUMENTS,
  MOVE_NAMES,
  type MoveArgument,
  type MoveName,
  parseSetupData,
  rulesOf,
} from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { updateRequestSchema } from '../src/index.ts';

/** A small seeded generator (mulberry32), so a failing game can be played again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const onTheWire = (move: MoveName, args: unknown[], seat: '0' | '1') =>
  updateRequestSchema.safeParse({
    matchID: 'moveArgs0001',
    stateID: 0,
    action: { type: 'MAKE_MOVE', payload: { type: move, args, playerID: seat } },
  });

/** A value of each kind of argument the engine could be sent. */
const SAMPLE: Record<MoveArgument, unknown> = {
  side: 'USSR',
  card: 'poland',
  cell: { x: 1, y: -1 },
  action: 'command',
  yesNo: false,
  placements: [['poland'], ['poland', 'cuba']],
};

describe('move arguments on the wire and in the engine', () => {
  it('a move the engine lists as legal is never refused at the wire (20 random games)', () => {
    const seen = new Set<string>();
    for (let game = 0; game < 20; game++) {
      const random = seeded(game);
      const setup = parseSetupData({ sides: { '0': 'US', '1': 'USSR' } });
      const rules = rulesOf(setup);
      const state = createState(setup, (cards) => {
        for (let i = cards.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [cards[i], cards[j]] = [cards[j] as string, cards[i] as string];
        }
        return cards;
      });
      while (state.decision) {
        const seat = state.decision.seat;
        const moves = legalMoves(rules, state, seat);
        for (const { move, args } of moves) {
          const parsed = onTheWire(move, args, seat);
          if (!parsed.success) throw new Error(`${move} ${JSON.stringify(args)}: ${parsed.error}`);
          seen.add(`${move}/${args.length}`);
        }
        if (state.decision.kind === 'placeCubes') {
          // A confirmed draft: random cubes, each one the engine lists on the draft so far.
          const cubes: unknown[][] = [];
          for (;;) {
            const draft = draftPlacements(rules, state, seat, cubes);
            const next = legalMoves(rules, draft?.state ?? state, seat).filter(
              (m) => m.move === 'placeCube',
            );
            const cube = next[Math.floor(random() * next.length)];
            if (!cube || draft?.complete || (cubes.length > 0 && random() < 0.3)) break;
            cubes.push(cube.args);
          }
          if (cubes.length > 0) {
            const parsed = onTheWire('placeCubes', [cubes], seat);
            if (!parsed.success)
              throw new Error(`placeCubes ${JSON.stringify(cubes)}: ${parsed.error}`);
            seen.add('placeCubes/1');
          }
        }
        const chosen = moves[Math.floor(random() * moves.length)];
        if (!chosen || !applyMove(rules, state, seat, chosen.move, chosen.args).ok)
          throw new Error('stuck');
      }
    }
    // Every move of the game was tried in at least one of its forms.
    expect(new Set([...seen].map((key) => key.split('/')[0]))).toEqual(new Set(MOVE_NAMES));
  });

  it('the wire takes exactly the argument counts of the game’s table, and each form of it', () => {
    for (const move of MOVE_NAMES) {
      const forms = MOVE_ARGUMENTS[move];
      for (const form of forms) {
        const args = form.map((kind) => SAMPLE[kind]);
        expect(onTheWire(move, args, '0').success, `${move} ${form.join(', ')}`).toBe(true);
      }
      const longest = Math.max(...forms.map((form) => form.length));
      for (let count = 0; count <= longest + 1; count++) {
        if (forms.some((form) => form.length === count)) continue;
        const args = Array.from({ length: count }, (_, i) => SAMPLE[forms[0]?.[i] ?? 'card']);
        expect(onTheWire(move, args, '0').success, `${move} with ${count}`).toBe(false);
      }
    }
  });

  it('refuses a confirmed draft that is empty, too long or has a malformed cube', () => {
    const cubes = (n: number) => Array.from({ length: n }, () => ['poland']);
    expect(onTheWire('placeCubes', [cubes(MAX_DRAFTED_CUBES)], '0').success).toBe(true);
    expect(onTheWire('placeCubes', [[]], '0').success).toBe(false);
    expect(onTheWire('placeCubes', [cubes(MAX_DRAFTED_CUBES + 1)], '0').success).toBe(false);
    for (const bad of [[[]], [['poland', 'cuba', 'iran']], ['poland'], [[7]], [['']]])
      expect(onTheWire('placeCubes', [bad], '0').success, JSON.stringify(bad)).toBe(false);
  });
});
