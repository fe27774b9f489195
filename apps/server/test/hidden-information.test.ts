import { ironCurtainFor, type Seat, type State } from '@iron-curtain/game';
import type { State as BgioState } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../src/ops/secrets.ts';
import {
  createAndJoin,
  type GameClient,
  pickMove,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

const MATCHES = 16;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** Every state of a match by state id, rebuilt from the store's seed and move log. */
async function truthOf(matchID: string): Promise<Map<number, State>> {
  const match = await server.stores.matches.getMatch(matchID);
  if (!match) throw new Error('match not stored');
  const game = { ...ironCurtainFor(match.setupData).game, seed: match.seed };
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({ game, numPlayers: 2, setupData: match.setupData }) as BgioState;
  const truth = new Map<number, State>([[0, state.G as State]]);
  for (const move of await server.stores.matches.readMoves(matchID)) {
    state = reducer(state, {
      type: 'MAKE_MOVE',
      payload: { type: move.move, args: move.args, playerID: move.seat },
    });
    expect(state._stateID).toBe(move.stateID);
    truth.set(state._stateID, state.G as State);
  }
  expect(state.G).toEqual((await server.stores.matches.loadState(matchID))?.G);
  return truth;
}

/** Cards `viewer` may not know in state G: the opponent's hand, the reserve, the other aftermath card. */
function hiddenFrom(G: State, viewer: Seat | null): Set<string> {
  const hidden = new Set<string>(G.reserve);
  const revealed = G.finalScoring !== null;
  for (const seat of ['0', '1'] as const) {
    if (seat === viewer) continue;
    for (const card of G.hands[seat]) hidden.add(card);
    const aftermath = G.aftermath[seat];
    if (aftermath !== null && !revealed) hidden.add(aftermath);
  }
  return hidden;
}

/** Every string in a message (values and keys), except the deck list, which is public. */
function stringsOf(value: unknown, out: string[] = [], key = ''): string[] {
  if (key === 'deck') return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out, k);
    }
  }
  return out;
}

/** socket.io message packets: `2/game,["event",payload]` or, for acks, `3/game,<id>[payload]`. */
function decode(wire: string): unknown[] | undefined {
  if (!wire.startsWith('message:')) return undefined;
  const at = wire.indexOf('[');
  return at < 0 ? undefined : (JSON.parse(wire.slice(at)) as unknown[]);
}

interface Secrets {
  seed: string;
  invite: string;
  credentials: Record<Seat, string>;
}

function checkWire(
  client: GameClient,
  viewer: Seat | null,
  truth: Map<number, State>,
  secrets: Secrets,
): number {
  const forbidden = [
    secrets.seed,
    secrets.invite,
    hashSecret(secrets.invite),
    secrets.credentials['0'],
    secrets.credentials['1'],
    hashSecret(secrets.credentials['0']),
    hashSecret(secrets.credentials['1']),
    'prngstate',
    '"plugins"',
    '"seed"',
    '_random',
  ];
  let stateID = 0;
  let checked = 0;
  for (const wire of client.wire) {
    for (const secret of forbidden) expect(wire).not.toContain(secret);
    const message = decode(wire);
    if (!message) continue;
    // A sync carries its state's id in its frame; an update, the id it leads to.
    const payload = message.at(-1) as { state?: { stateID: number }; stateID?: number } | undefined;
    if (payload?.state) stateID = payload.state.stateID;
    else if (typeof payload?.stateID === 'number') stateID = payload.stateID;
    const G = truth.get(stateID);
    expect(G, `state ${stateID} exists`).toBeDefined();
    const hidden = hiddenFrom(G as State, viewer);
    const leaked = stringsOf(message).filter((s) => hidden.has(s));
    expect(leaked, `seat ${viewer} was sent hidden cards at state ${stateID}`).toEqual([]);
    checked += 1;
  }
  return checked;
}

describe('hidden information on the wire', () => {
  it(`no seat or spectator is ever sent a card it may not know, a seed or a credential (${MATCHES} matches)`, async () => {
    let frames = 0;
    let probes = 0;
    for (let m = 0; m < MATCHES; m++) {
      const { created, joined, invite, texts } = await createAndJoin(server.url, {
        visibility: 'public',
      });
      const matchID = created.matchID;
      const spectator = await seatClient(server.url, matchID, null);
      const seats: Record<Seat, GameClient> = {
        '0': await seatClient(server.url, matchID, '0', created.credentials),
        '1': await seatClient(server.url, matchID, '1', joined.credentials),
      };
      const random = prng(1000 + m);
      while (seats['0'].gameover === undefined) {
        const seat = seats['0'].view.decision?.seat as Seat;
        const player = seats[seat];
        const other = seats[seat === '0' ? '1' : '0'];
        // At every card play of round 1 the player probes with the opponent's card and a
        // reserve card: both must be refused alike, without a hint of where the card is.
        const G = (await server.stores.matches.loadState(matchID))?.G as State;
        const theirs = G.hands[other.playerID as Seat][0];
        const reserved = G.reserve[0];
        if (G.decision?.kind === 'playCard' && theirs && reserved) {
          const a = await player.move({ move: 'playCard', args: [theirs, { x: 1, y: 0 }] });
          const b = await player.move({ move: 'playCard', args: [reserved, { x: 1, y: 0 }] });
          expect(a).toEqual(b);
          expect(a.ok).toBe(false);
          probes += 1;
        }
        // Now and then the other seat tries to move out of turn.
        if (random() < 0.15) {
          const out = await other.move({ move: 'finishStep', args: [] });
          expect(out.ok).toBe(false);
        }
        const before = player.state?.stateID ?? 0;
        expect(await player.move(pickMove(player, random))).toEqual({ ok: true });
        await Promise.all(
          [spectator, seats['0'], seats['1']].map((c) =>
            c.until(() => (c.state?.stateID ?? 0) > before, 'update'),
          ),
        );
      }
      const truth = await truthOf(matchID);
      const match = await server.stores.matches.getMatch(matchID);
      const secrets: Secrets = {
        seed: match?.seed as string,
        invite,
        credentials: { '0': created.credentials, '1': joined.credentials },
      };
      frames += checkWire(spectator, null, truth, secrets);
      frames += checkWire(seats['0'], '0', truth, secrets);
      frames += checkWire(seats['1'], '1', truth, secrets);

      // The lobby: each seat's answer carries only its own secrets; public answers none.
      expect(texts[0]).not.toContain(joined.credentials);
      expect(texts[1]).not.toContain(created.credentials);
      expect(texts[1]).not.toContain(invite);
      const publicTexts = [
        (await request(`${server.url}/api/matches/${matchID}`, 'GET')).text,
        (await request(`${server.url}/api/matches?limit=100`, 'GET')).text,
        (await request(server.metricsUrl, 'GET')).text,
      ];
      for (const text of [...texts, ...publicTexts]) {
        expect(text).not.toContain(secrets.seed);
        expect(text).not.toContain(hashSecret(invite));
        expect(text).not.toContain(hashSecret(created.credentials));
        expect(text).not.toContain(hashSecret(joined.credentials));
      }
      for (const text of publicTexts) {
        expect(text).not.toContain(invite);
        expect(text).not.toContain(created.credentials);
        expect(text).not.toContain(joined.credentials);
      }
      for (const c of [spectator, seats['0'], seats['1']]) c.close();
    }
    // Round 1 has eight card plays (fewer only if the track ends a match early): each probes.
    expect(probes).toBeGreaterThanOrEqual(MATCHES * 4);
    expect(frames).toBeGreaterThan(MATCHES * 100);
  }, 240_000);
});
