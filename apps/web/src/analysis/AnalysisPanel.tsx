import { ANALYSIS_ITERATIONS, moveWords } from '@iron-curtain/bots';
import type { MatchRecord, Move, ReplayStep, Seat } from '@iron-curtain/game';
import type {
  AnalysisMark,
  DecisionAnalysis,
  MatchAnalysis,
} from '@iron-curtain/protocol/analysis';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableMarks } from '../board/Board.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import type { AnalysisMessage, AnalysisRequest } from './analysisJob.ts';
import { moveMarks, moveText } from './moveText.ts';

/** Depths a player can choose: a quick look or the full default search. */
const DEPTHS = { quick: 150, full: ANALYSIS_ITERATIONS } as const;
type Depth = keyof typeof DEPTHS;

const SEED = 'replay';
const WIDTH = 600;
const HEIGHT = 200;
/** Marks are told apart by shape and text too, never by colour alone. */
const SYMBOL: Record<Flaw, string> = {
  inaccuracy: '?!',
  mistake: '?',
  blunder: '??',
};

/** A mark that the panel lists: every one but a good move. */
type Flaw = Exclude<AnalysisMark, 'good'>;
const isFlawed = (d: DecisionAnalysis): d is DecisionAnalysis & { mark: Flaw } => d.mark !== 'good';

const percent = (chance: number) => Math.round(chance * 100);

interface Props {
  record: MatchRecord;
  steps: ReplayStep[];
  /** The replay's position: 0 before the first move, i + 1 after move i. */
  at?: number;
  /**
   * Jumps the replay to a move. Without a replay beside it (the live table's end), moves are
   * named by their number and shown nowhere.
   */
  onJump?: (at: number) => void;
  /** Shows a move on the replay's table: the position before it, with where it happens marked. */
  onShow?: (at: number, marks: TableMarks) => void;
  /** An analysis saved with the record file. */
  saved: MatchAnalysis | null;
}

/** The computer's analysis of every decision, run in a Web Worker on demand. */
export function AnalysisPanel({ record, steps, at = 0, onJump, onShow, saved }: Props) {
  const { t } = useTranslation();
  const words = useGameWords();
  const [analysis, setAnalysis] = useState<MatchAnalysis | null>(saved);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [depth, setDepth] = useState<Depth>('full');
  const worker = useRef<Worker | null>(null);

  const stop = () => {
    worker.current?.terminate();
    worker.current = null;
    setProgress(null);
  };
  useEffect(() => () => worker.current?.terminate(), []);

  const start = () => {
    stop();
    setFailure(null);
    setAnalysis(null);
    setProgress({ done: 0, total: record.moves.length });
    // Loaded only now: the search is no part of any page's first download.
    const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    w.onmessage = (event: MessageEvent<AnalysisMessage>) => {
      const m = event.data;
      if (m.type === 'progress') setProgress({ done: m.done, total: m.total });
      else {
        if (m.type === 'done') setAnalysis(m.analysis);
        else setFailure(m.reason);
        w.terminate();
        worker.current = null;
        setProgress(null);
      }
    };
    w.onerror = () => {
      setFailure(t('analysis.workerFailed'));
      stop();
    };
    const request: AnalysisRequest = { record, seed: SEED, iterations: DEPTHS[depth] };
    w.postMessage(request);
  };

  const sides = steps[0]?.state.sides;
  const who = (seat: Seat) => record.names?.[seat] ?? (sides ? words.side(sides[seat]) : seat);
  const wordsOf = (d: DecisionAnalysis, move: DecisionAnalysis['played']) => {
    const before = steps[d.index];
    return before ? moveWords(before.rules, before.state, move as Move) : null;
  };
  const describe = (d: DecisionAnalysis, move: DecisionAnalysis['played']) => {
    const said = wordsOf(d, move);
    return said ? moveText(words, (steps[d.index] as ReplayStep).rules.deck, said) : '';
  };
  const marked = analysis?.decisions.filter(isFlawed) ?? [];
  const href = analysis
    ? `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify({ record, analysis }, null, 2))}`
    : null;

  return (
    <section className="panel analysis" aria-labelledby="analysis-title">
      <h2 id="analysis-title">{t('analysis.title')}</h2>
      <p className="analysis-intro">{t('analysis.intro')}</p>
      <div className="analysis-controls">
        <label>
          {t('analysis.depth')}{' '}
          <select
            value={depth}
            onChange={(e) => setDepth(e.currentTarget.value as Depth)}
            disabled={progress !== null}
          >
            <option value="quick">{t('analysis.depthQuick')}</option>
            <option value="full">{t('analysis.depthFull')}</option>
          </select>
        </label>
        {progress === null ? (
          <button type="button" onClick={start}>
            {analysis ? t('analysis.again') : t('analysis.start')}
          </button>
        ) : (
          <button type="button" onClick={stop}>
            {t('analysis.cancel')}
          </button>
        )}
        {href && (
          <a className="button secondary" href={href} download="iron-curtain-analysed.json">
            {t('analysis.save')}
          </a>
        )}
      </div>
      {progress && (
        <label className="analysis-progress">
          {t('analysis.progress', { done: progress.done, total: progress.total })}
          <progress max={progress.total} value={progress.done} />
        </label>
      )}
      {failure && (
        <p className="error" role="alert">
          {t('analysis.failed', { reason: failure })}
        </p>
      )}
      {analysis && (
        <>
          <ChanceChart analysis={analysis} at={at} onJump={onJump} />
          <Summary analysis={analysis} who={who} />
          <h3>{t('analysis.marked', { number: marked.length })}</h3>
          <ol className="analysis-marks">
            {marked.map((d) => (
              <li key={d.index} data-mark={d.mark}>
                {onJump ? (
                  <button type="button" onClick={() => onJump(d.index + 1)}>
                    {t('analysis.goTo', { index: d.index + 1 })}
                  </button>
                ) : (
                  <strong>{t('analysis.goTo', { index: d.index + 1 })}</strong>
                )}{' '}
                <span className="mark-symbol" aria-hidden="true">
                  {SYMBOL[d.mark]}
                </span>{' '}
                {t('analysis.markLine', {
                  who: who(d.seat),
                  mark: t(`analysis.mark_${d.mark}`),
                  loss: percent(d.loss),
                })}{' '}
                {t('analysis.better', { best: describe(d, d.best), played: describe(d, d.played) })}
                {onShow && (
                  <>
                    {' '}
                    <button
                      type="button"
                      className="secondary"
                      data-show-better={d.index}
                      onClick={() => {
                        const said = wordsOf(d, d.best);
                        if (said)
                          onShow(d.index, { ...moveMarks(said), label: describe(d, d.best) });
                      }}
                    >
                      {t('analysisWords.show')}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/**
 * Marks and chance lost per player: one column per player, so it fits a phone's width. Under it,
 * where points first appear, what they measure.
 */
function Summary({ analysis, who }: { analysis: MatchAnalysis; who: (seat: Seat) => string }) {
  const { t } = useTranslation();
  const seats = ['0', '1'] as const;
  const marks = ['inaccuracy', 'mistake', 'blunder'] as const;
  const note = useId();
  return (
    <>
      <table className="analysis-summary" aria-describedby={note}>
        <caption>{t('analysis.summary')}</caption>
        <thead>
          <tr>
            <td />
            {seats.map((seat) => (
              <th key={seat} scope="col">
                {who(seat)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {marks.map((mark) => (
            <tr key={mark}>
              <th scope="row">
                <span aria-hidden="true">{SYMBOL[mark]}</span> {t(`analysis.mark_${mark}`)}
              </th>
              {seats.map((seat) => (
                <td key={seat}>{analysis.summary[seat][mark]}</td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row">{t('analysis.averageLoss')}</th>
            {seats.map((seat) => (
              <td key={seat}>
                {t('analysis.points', {
                  value: (analysis.summary[seat].averageLoss * 100).toFixed(1),
                })}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <p id={note} className="analysis-points">
        {t('analysis.pointsNote')}
      </p>
    </>
  );
}

/**
 * The US's chance after every move; a click jumps the replay to the move under it. Each move
 * owns an equal band of the width (its point lies in it): with the nearest point instead, the
 * last move had half a band, under 2 px of a chart in the side column.
 */
function ChanceChart({
  analysis,
  at,
  onJump,
}: {
  analysis: MatchAnalysis;
  at: number;
  onJump?: (at: number) => void;
}) {
  const { t } = useTranslation();
  const n = analysis.usChance.length;
  const x = (i: number) => (n <= 1 ? 0 : (i / (n - 1)) * WIDTH);
  const y = (chance: number) => (1 - chance) * HEIGHT;
  const points = analysis.usChance.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(' ');
  const jump = (event: React.MouseEvent<SVGSVGElement>) => {
    if (!onJump) return;
    const box = event.currentTarget.getBoundingClientRect();
    const share = (event.clientX - box.left) / box.width;
    onJump(Math.max(0, Math.min(n - 1, Math.floor(share * n))) + 1);
  };
  const label = t('analysis.chartLabel', {
    moves: n,
    first: percent(analysis.usChance[0] ?? 0.5),
    last: percent(analysis.usChance.at(-1) ?? 0.5),
  });
  return (
    <figure className="analysis-chart">
      <figcaption>{t('analysis.chartTitle')}</figcaption>
      <div className="chart-frame">
        <span className="chart-axis top">{t('analysis.axisUS')}</span>
        {/* Clicks are a shortcut: the list of marked moves and the table below reach every point by keyboard. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the buttons of the marked moves and the replay's own controls are the keyboard path */}
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
          onClick={jump}
        >
          <rect className="half us" x={0} y={0} width={WIDTH} height={HEIGHT / 2} />
          <rect className="half ussr" x={0} y={HEIGHT / 2} width={WIDTH} height={HEIGHT / 2} />
          <line className="centre" x1={0} x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} />
          {at > 0 && <line className="now" x1={x(at - 1)} x2={x(at - 1)} y1={0} y2={HEIGHT} />}
          <polyline className="chance" points={points} vectorEffect="non-scaling-stroke" />
          {analysis.decisions
            .filter((d) => d.mark !== 'good')
            .map((d) => {
              // A zero-length line with round caps and an unscaled stroke: a round dot whatever
              // the chart's stretch (a circle would be drawn as an ellipse).
              const at = {
                x1: x(d.index),
                x2: x(d.index),
                y1: y(analysis.usChance[d.index] ?? 0.5),
              };
              return (
                <g key={d.index} className={`mark ${d.mark}`} data-mark={d.mark}>
                  <line {...at} y2={at.y1} className="ring" vectorEffect="non-scaling-stroke" />
                  <line {...at} y2={at.y1} className="dot" vectorEffect="non-scaling-stroke" />
                </g>
              );
            })}
        </svg>
        <span className="chart-axis bottom">{t('analysis.axisUSSR')}</span>
      </div>
      <details>
        <summary>{t('analysis.tableTitle')}</summary>
        <table className="analysis-table">
          <thead>
            <tr>
              <th scope="col">{t('analysis.moveColumn')}</th>
              <th scope="col">{t('analysis.chanceColumn')}</th>
              <th scope="col">{t('analysis.markColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {analysis.usChance.map((c, i) => {
              const mark = analysis.decisions[i]?.mark ?? 'good';
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: one row per move, in order
                <tr key={i}>
                  <td>{i + 1}</td>
                  <td>{percent(c)} %</td>
                  <td>{mark === 'good' ? '' : t(`analysis.mark_${mark}`)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
