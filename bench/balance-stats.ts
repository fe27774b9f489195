// Why one side wins more: per-card and per-ending statistics of self-play logs (bench/selfplay.ts
// --log). Every game's deal is rebuilt from its seed; games logged with --moves are also
// replayed through the engine (no bot runs), which gives what each card was used for.
// Usage: npx tsx bench/balance-stats.ts <log.jsonl> [more logs of the same deck]
import { readFileSync } from 'node:fs';
import { newGame, type SelfPlayGame, wilson } from '@iron-curtain/bots';
import {
  applyMove,
  type CardId,
  DEFAULT_DECK,
  indexDeck,
  type LogEntry,
  type Seat,
  type Side,
  TRACK_END,
} from '@iron-curtain/game';
import { gameOf, rulesOfRun, type WorkerSetup } from './selfplay-deals.ts';

/** How a game ended: the step that moved the marker onto a flag, or final scoring. */
type Ending =
  | { kind: 'event'; card: CardId }
  | { kind: 'placement'; card: CardId; region: string }
  | { kind: 'final-step'; step: string }
  | { kind: 'final' };

/** What a replayed game adds to its deal. */
interface Replayed {
  /** Per card played: the side that played it, its round, and what its event did. */
  plays: {
    card: CardId;
    by: Side;
    round: 1 | 2;
    use: 'event' | 'command' | 'declined' | 'taken';
  }[];
  aftermath: Record<Side, CardId | null>;
  first: Record<1 | 2, Side | null>;
  markerAfterRound1: number | null;
  round: 1 | 2;
  ending: Ending;
  /** Every movement of the marker (positive towards the US) and what caused it. */
  movements: { source: string; delta: number }[];
  marker: number;
}

interface GameFacts {
  winner: Side;
  reason: 'track' | 'final';
  marker: number;
  /** Who held each strategy card, and in which round. */
  holders: Map<CardId, { side: Side; round: 1 | 2 }>;
  replayed?: Replayed;
}

const HELP = 'npx tsx bench/balance-stats.ts <log.jsonl> [more logs of the same deck]';
const deck = indexDeck(DEFAULT_DECK);

function readGames(file: string): { setup: WorkerSetup; games: SelfPlayGame[] } {
  const [head, ...lines] = readFileSync(file, 'utf8').split('\n');
  const { setup } = JSON.parse(head ?? '{}') as { setup?: WorkerSetup };
  if (!setup?.seed) throw new Error(`${file}: the first line is not a self-play log header`);
  const games = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as SelfPlayGame);
  return { setup, games };
}

/** The deal of one logged game and, when its moves are logged, its replay. */
function factsOf(setup: WorkerSetup, game: SelfPlayGame): GameFacts {
  const { seed, aSide } = gameOf(setup, game.index);
  const { rules, state } = newGame(seed, aSide, rulesOfRun(setup));
  const sideOf = (seat: Seat) => state.sides[seat];
  const holders = new Map<CardId, { side: Side; round: 1 | 2 }>();
  for (const seat of ['0', '1'] as const) {
    for (const card of state.hands[seat]) holders.set(card, { side: sideOf(seat), round: 1 });
  }
  // Round 2 deals the reserve in order: its first half to seat 0 (checked by the replay below).
  const half = state.reserve.length / 2;
  state.reserve.forEach((card, i) => {
    holders.set(card, { side: sideOf(i < half ? '0' : '1'), round: 2 });
  });
  const facts: GameFacts = {
    winner: game.record.result.winnerSide,
    reason: game.record.result.reason,
    marker: game.record.marker,
    holders,
  };
  if (game.record.moves.length === 0) return facts;

  const replayed: Replayed = {
    plays: [],
    aftermath: { US: null, USSR: null },
    first: { 1: null, 2: null },
    markerAfterRound1: null,
    round: 1,
    ending: { kind: 'final' },
    movements: [],
    marker: 0,
  };
  let current: CardId | null = null;
  for (const { seat, move } of game.record.moves) {
    const outcome = applyMove(rules, state, seat, move.move, move.args);
    if (!outcome.ok) throw new Error(`game ${game.index}: the replay refused ${move.move}`);
    for (const entry of outcome.log) current = note(replayed, state.round, entry, current);
    if (state.round === 2 && replayed.markerAfterRound1 === null) {
      replayed.markerAfterRound1 = state.marker;
      for (const s of ['0', '1'] as const) {
        replayed.aftermath[sideOf(s)] = state.aftermath[s];
        for (const card of state.hands[s]) {
          if (holders.get(card)?.side !== sideOf(s))
            throw new Error(`game ${game.index}: round 2 was not dealt as this script assumes`);
        }
      }
    }
  }
  const result = state.result;
  if (result?.winnerSide !== facts.winner || state.marker !== facts.marker)
    throw new Error(`game ${game.index}: the replay does not end as logged`);
  replayed.round = state.round as 1 | 2;
  facts.replayed = replayed;
  return facts;
}

function moved(r: Replayed, source: string, marker: number): void {
  r.movements.push({ source, delta: marker - r.marker });
  r.marker = marker;
}

/** Folds one log entry into the replay's facts; returns the card now being resolved. */
function note(r: Replayed, round: number, entry: LogEntry, current: CardId | null): CardId | null {
  const play = (card: CardId) => r.plays.findLast((p) => p.card === card);
  switch (entry.type) {
    case 'firstPlayer':
      r.first[entry.round] = entry.first;
      return current;
    case 'play':
      r.plays.push({ card: entry.cardId, by: entry.side, round: round as 1 | 2, use: 'command' });
      return entry.cardId;
    case 'action': {
      const p = play(entry.cardId);
      if (p) p.use = entry.choice;
      return current;
    }
    case 'eventDecision': {
      const p = play(entry.cardId);
      if (p) p.use = entry.use ? 'taken' : 'declined';
      return current;
    }
    case 'gain':
      moved(r, current ? `event: ${current}` : 'event', entry.marker);
      if (Math.abs(entry.marker) === TRACK_END && current)
        r.ending = { kind: 'event', card: current };
      return current;
    case 'regionScored':
      moved(
        r,
        `${entry.final ? 'final scoring' : `scored in round ${round}`}: ${entry.score.region}`,
        entry.marker,
      );
      if (Math.abs(entry.marker) === TRACK_END) {
        r.ending =
          entry.final || !current
            ? { kind: 'final-step', step: entry.score.region }
            : { kind: 'placement', card: current, region: entry.score.region };
      }
      return current;
    case 'aftermathRevealed':
      moved(r, 'final scoring: aftermath', entry.marker);
      if (Math.abs(entry.marker) === TRACK_END)
        r.ending = { kind: 'final-step', step: 'aftermath' };
      return current;
    default:
      return current;
  }
}

// ------------------------------------------------------------------ tables

const pct = (wins: number, n: number) => {
  if (n === 0) return '-';
  const i = wilson(wins, n);
  return `${(100 * i.share).toFixed(1)} % [${(100 * i.low).toFixed(0)}, ${(100 * i.high).toFixed(0)}] (${n})`;
};
const table = (header: string[], rows: (string | number)[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

function outcomeTables(all: GameFacts[]): string {
  const us = all.filter((g) => g.winner === 'US').length;
  const rows = (['US', 'USSR'] as const).map((side) => {
    const won = all.filter((g) => g.winner === side);
    return [
      side,
      pct(won.length, all.length),
      won.filter((g) => g.reason === 'track').length,
      won.filter((g) => g.reason === 'final').length,
    ];
  });
  const markers = new Map<number, number>();
  for (const g of all) markers.set(g.marker, (markers.get(g.marker) ?? 0) + 1);
  const spread = [...markers.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([m, n]) => `${m > 0 ? '+' : ''}${m}: ${n}`)
    .join(', ');
  return [
    `${all.length} games, US wins ${pct(us, all.length)}`,
    '',
    table(['winner', 'share [95 % CI] (games)', 'on the track', 'at final scoring'], rows),
    '',
    `Final marker (+ towards the US): ${spread}`,
  ].join('\n');
}

/** US win rate by who held each card: every card is dealt to one side every game. */
function holderTable(all: GameFacts[]): string {
  const rows = deck.strategyCards.map((card) => {
    const c = deck.card(card);
    const held = (side: Side, round?: 1 | 2) =>
      all.filter((g) => {
        const h = g.holders.get(card);
        return h?.side === side && (round === undefined || h.round === round);
      });
    const usWins = (gs: GameFacts[]) => gs.filter((g) => g.winner === 'US').length;
    const byUS = held('US');
    const byUSSR = held('USSR');
    const gap =
      byUS.length && byUSSR.length
        ? (100 * (usWins(byUS) / byUS.length - usWins(byUSSR) / byUSSR.length)).toFixed(1)
        : '-';
    return [
      card,
      c.flag ?? '-',
      c.command ?? '-',
      pct(usWins(byUS), byUS.length),
      pct(usWins(byUSSR), byUSSR.length),
      gap,
      pct(usWins(held('US', 1)), held('US', 1).length),
      pct(usWins(held('USSR', 1)), held('USSR', 1).length),
    ];
  });
  return table(
    [
      'card',
      'flag',
      'cmd',
      'US wins, US holds it',
      'US wins, USSR holds it',
      'gap (points)',
      'US holds it in round 1',
      'USSR holds it in round 1',
    ],
    rows,
  );
}

/** What each card was used for, and how its flag's side fared. */
function useTable(replayed: { facts: GameFacts; r: Replayed }[]): string {
  const rows = deck.strategyCards.map((card) => {
    const flag = deck.card(card).flag as Side;
    const plays = replayed.flatMap(({ facts, r }) =>
      r.plays.filter((p) => p.card === card).map((p) => ({ p, won: facts.winner === flag })),
    );
    const by = (own: boolean, use: Replayed['plays'][number]['use']) => {
      const ps = plays.filter(({ p }) => (p.by === flag) === own && p.use === use);
      return pct(ps.filter((x) => x.won).length, ps.length);
    };
    const kept = replayed.filter(({ r }) => r.aftermath.US === card || r.aftermath.USSR === card);
    return [
      card,
      flag,
      deck.card(card).command ?? '-',
      by(true, 'event'),
      by(true, 'command'),
      by(false, 'taken'),
      by(false, 'declined'),
      pct(kept.filter(({ facts }) => facts.winner === flag).length, kept.length),
    ];
  });
  return table(
    [
      'card',
      'flag',
      'cmd',
      'flag side wins: it played the card for the event',
      'for Command',
      'opponent played it, event taken',
      'event declined',
      'card in the aftermath',
    ],
    rows,
  );
}

function endingLabel(e: Ending, round: 1 | 2, detailed: boolean): string {
  switch (e.kind) {
    case 'event':
      return detailed ? `round ${round}, event of ${e.card}` : `round ${round}, an event's gain`;
    case 'placement':
      return detailed
        ? `round ${round}, ${e.region} scored on placing ${e.card}`
        : `round ${round}, a region scored in play`;
    case 'final-step':
      return detailed
        ? `final scoring reached the flag: ${e.step}`
        : 'final scoring reached the flag';
    case 'final':
      return 'after final scoring';
  }
}

/** How games ended, by kind (detailed: by card and region, the most frequent first). */
function endingTable(replayed: { facts: GameFacts; r: Replayed }[], detailed: boolean): string {
  const counts = new Map<string, Record<Side, number>>();
  for (const { facts, r } of replayed) {
    const label = endingLabel(r.ending, r.round, detailed);
    const row = counts.get(label) ?? { US: 0, USSR: 0 };
    row[facts.winner] += 1;
    counts.set(label, row);
  }
  const rows = [...counts.entries()]
    .sort((a, b) => b[1].US + b[1].USSR - (a[1].US + a[1].USSR))
    .slice(0, detailed ? 15 : undefined)
    .map(([label, n]) => [label, n.US, n.USSR]);
  return table(['how the game ended', 'US wins', 'USSR wins'], rows);
}

/** US wins by what the deal gave each side: command values and cards of its own flag. */
function handTable(all: GameFacts[]): string {
  const usHolds = (g: GameFacts) =>
    [...g.holders.entries()].filter(([, h]) => h.side === 'US').map(([card]) => deck.card(card));
  const groups = new Map<string, GameFacts[]>();
  const add = (label: string, g: GameFacts) => groups.set(label, [...(groups.get(label) ?? []), g]);
  for (const g of all) {
    const cards = usHolds(g);
    const command = cards.reduce((n, c) => n + (c.command ?? 0), 0);
    const own = cards.filter((c) => c.flag === 'US').length;
    add(`command held by the US: ${Math.min(23, Math.max(16, command))}`, g);
    add(`US-flag cards held by the US: ${own}`, g);
  }
  const rows = [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))
    .map(([label, gs]) => [label, pct(gs.filter((g) => g.winner === 'US').length, gs.length)]);
  return table(['deal (both rounds; 16 = 16 or less, 23 = 23 or more)', 'US wins'], rows);
}

/** Where the ideology points came from: every movement of the marker, by its cause. */
function sourceTable(replayed: { facts: GameFacts; r: Replayed }[]): string {
  const bySource = new Map<string, { us: number; ussr: number; times: number }>();
  for (const { r } of replayed) {
    for (const m of r.movements) {
      const row = bySource.get(m.source) ?? { us: 0, ussr: 0, times: 0 };
      if (m.delta > 0) row.us += m.delta;
      else row.ussr -= m.delta;
      row.times += 1;
      bySource.set(m.source, row);
    }
  }
  const n = replayed.length;
  const rows = [...bySource.entries()]
    .sort((a, b) => a[1].us - a[1].ussr - (b[1].us - b[1].ussr))
    .map(([source, t]) => [
      source,
      t.times,
      (t.us / n).toFixed(2),
      (t.ussr / n).toFixed(2),
      ((t.us - t.ussr) / n).toFixed(2),
    ]);
  return table(
    ['source', 'times', 'IP to the US per game', 'IP to the USSR per game', 'net per game (+ US)'],
    rows,
  );
}

function flowTable(replayed: { facts: GameFacts; r: Replayed }[]): string {
  const rows: (string | number)[][] = [];
  for (const round of [1, 2] as const) {
    for (const side of ['US', 'USSR'] as const) {
      const gs = replayed.filter(({ r }) => r.first[round] === side);
      const own = gs.filter(({ facts }) => facts.winner === side).length;
      rows.push([`round ${round}: ${side} went first`, pct(own, gs.length)]);
    }
  }
  const after1 = replayed.filter(({ r }) => r.markerAfterRound1 !== null);
  for (const [label, test] of [
    ['US ahead after round 1', (m: number) => m > 0],
    ['level after round 1', (m: number) => m === 0],
    ['USSR ahead after round 1', (m: number) => m < 0],
  ] as const) {
    const gs = after1.filter(({ r }) => test(r.markerAfterRound1 ?? 0));
    rows.push([label, pct(gs.filter(({ facts }) => facts.winner === 'US').length, gs.length)]);
  }
  return table(['games where', 'that side / the US wins'], rows);
}

function main(): void {
  const files = process.argv.slice(2);
  if (files.length === 0 || files.includes('--help')) {
    console.log(HELP);
    process.exit(files.length === 0 ? 2 : 0);
  }
  const all: GameFacts[] = [];
  for (const file of files) {
    const { setup, games } = readGames(file);
    for (const g of games) all.push(factsOf(setup, g));
    console.log(`${file}: ${games.length} games of ${setup.a.strategy} vs ${setup.b.strategy}`);
  }
  const replayed = all.flatMap((facts) => (facts.replayed ? [{ facts, r: facts.replayed }] : []));
  console.log(`\n## Outcomes\n\n${outcomeTables(all)}`);
  console.log(`\n## US wins by who held each card (from the deals)\n\n${holderTable(all)}`);
  console.log(`\n## US wins by the strength of the deal\n\n${handTable(all)}`);
  if (replayed.length === 0) {
    console.log('\nNo game holds its moves (log them with selfplay.ts --moves to replay them).');
    return;
  }
  console.log(`\n## What each card was used for (${replayed.length} replayed games)\n`);
  console.log(useTable(replayed));
  console.log(`\n## Where the ideology points came from\n\n${sourceTable(replayed)}`);
  console.log(`\n## How games ended\n\n${endingTable(replayed, false)}`);
  console.log(`\nThe most frequent endings:\n\n${endingTable(replayed, true)}`);
  console.log(`\n## First player and round 1\n\n${flowTable(replayed)}`);
}

main();
