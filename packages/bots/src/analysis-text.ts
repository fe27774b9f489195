import { type MatchRecord, type Move, replaySteps, type Seat } from '@iron-curtain/game';
import type { MatchAnalysis } from '@iron-curtain/protocol/analysis';
import { englishMoveWords, moveWords } from './describe.ts';

const percent = (chance: number) => `${Math.round(chance * 100)} %`;

/** An analysis in English lines: every marked decision with the better choice, then the summary. */
export function analysisLines(record: MatchRecord, analysis: MatchAnalysis): string[] {
  const steps = [...replaySteps(record)];
  const lines: string[] = [];
  const sides = steps[0]?.state.sides;
  const who = (seat: Seat) => `${record.names?.[seat] ?? sides?.[seat]} (${sides?.[seat]})`;
  for (const d of analysis.decisions) {
    if (d.mark === 'good') continue;
    const before = steps[d.index];
    if (!before) continue;
    const words = (move: Move) =>
      englishMoveWords(before.rules, moveWords(before.rules, before.state, move));
    lines.push(
      `move ${d.index + 1}, ${who(d.seat)}: ${d.mark} (-${percent(d.loss)}): ` +
        `${words(d.best as Move)} instead of ${words(d.played as Move)} ` +
        `(${percent(d.bestChance)} against ${percent(d.playedChance)}); US ${percent(analysis.usChance[d.index] ?? 0)}`,
    );
  }
  for (const seat of ['0', '1'] as const) {
    const s = analysis.summary[seat];
    lines.push(
      `${who(seat)}: ${s.decisions} decisions, ${s.inaccuracy} inaccuracies, ${s.mistake} mistakes, ` +
        `${s.blunder} blunders, ${(s.averageLoss * 100).toFixed(1)} points of chance lost per decision`,
    );
  }
  return lines;
}
