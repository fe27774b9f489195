import fs from 'node:fs';
import path from 'node:path';
import { analyseRecord, analysisLines, matchRecordOf, playGame } from '@iron-curtain/bots';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AnalysisMessage, runAnalysisJob } from '../src/analysis/analysisJob.ts';
import { ReplayImportPage } from '../src/features/replay/ReplayImportPage.tsx';

const SPEC = {
  seed: 'web-analysis',
  seat0Side: 'USSR' as const,
  players: { '0': { strategy: 'greedy' as const }, '1': { strategy: 'random' as const } },
};
const RECORD = matchRecordOf(SPEC, playGame(SPEC));
const REQUEST = { record: RECORD, seed: 'web', iterations: 30 };

function workerRun(): AnalysisMessage[] {
  const messages: AnalysisMessage[] = [];
  runAnalysisJob(structuredClone(REQUEST), (m) => messages.push(structuredClone(m)));
  return messages;
}

const file = (text: string) => new File([text], 'record.json', { type: 'application/json' });

describe('the analysis worker', () => {
  const messages = workerRun();
  const done = messages.at(-1);
  if (done?.type !== 'done') throw new Error('the worker job did not finish');

  it('reports progress after every move, then the analysis', () => {
    const progress = messages.filter((m) => m.type === 'progress');
    expect(progress).toHaveLength(RECORD.moves.length);
    expect(progress.at(-1)).toEqual({
      type: 'progress',
      done: RECORD.moves.length,
      total: RECORD.moves.length,
    });
  });

  it('gives the CLI’s analysis and the CLI’s printed marks for the same record and seed', () => {
    const cli = analyseRecord(RECORD, { seed: REQUEST.seed, iterations: REQUEST.iterations });
    expect(done.analysis).toEqual(cli);
    expect(analysisLines(RECORD, done.analysis)).toEqual(analysisLines(RECORD, cli));
  });

  it('agrees with the CLI on a recorded match too (the engine’s fixture record)', () => {
    const recorded = JSON.parse(
      fs.readFileSync(
        path.resolve(
          import.meta.dirname,
          '../../../packages/game/test/records/fixed-deal-standard.json',
        ),
        'utf8',
      ),
    );
    const messages: AnalysisMessage[] = [];
    runAnalysisJob({ record: recorded, seed: 'fixture', iterations: 20 }, (m) =>
      messages.push(structuredClone(m)),
    );
    const last = messages.at(-1);
    if (last?.type !== 'done') throw new Error('the worker job did not finish');
    const cli = analyseRecord(recorded, { seed: 'fixture', iterations: 20 });
    expect(last.analysis).toEqual(cli);
    expect(analysisLines(recorded, last.analysis)).toEqual(analysisLines(recorded, cli));
  });

  it('says why when the record cannot be replayed', () => {
    const broken = structuredClone(RECORD);
    broken.moves.splice(1, 1);
    const messages: AnalysisMessage[] = [];
    runAnalysisJob({ ...REQUEST, record: broken }, (m) => messages.push(m));
    expect(messages.at(-1)).toMatchObject({
      type: 'failed',
      reason: expect.stringMatching(/^move 1:/),
    });
  });

  it('shows a saved analysis in the replay viewer: chart, marks, summary, and jumps', async () => {
    const marked = done.analysis.decisions.filter((d) => d.mark !== 'good');
    expect(marked.length).toBeGreaterThan(0);
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify({ record: RECORD, analysis: done.analysis }))] },
    });
    const chart = await screen.findByRole('img', { name: /Chart of the US’s chance to win/ });
    expect(chart.querySelectorAll('g.mark')).toHaveLength(marked.length);
    expect(screen.getByText(`Marked decisions: ${marked.length}`)).toBeTruthy();
    const first = marked[0] as (typeof marked)[number];
    const list = document.querySelector('.analysis-marks') as HTMLElement;
    expect(within(list).getAllByText(/Better: .+ instead of .+\./)).toHaveLength(marked.length);
    fireEvent.click(within(list).getAllByRole('button')[0] as HTMLElement);
    expect(screen.getByText(`Move ${first.index + 1} of ${RECORD.moves.length}`)).toBeTruthy();
    const summary = screen.getByRole('table', { name: 'Per player' });
    expect(within(summary).getAllByRole('row')).toHaveLength(5);
    // Where points first appear, the table says what they measure.
    expect(within(summary).getAllByText(/\d points$/).length).toBeGreaterThan(0);
    const note = document.getElementById(summary.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toMatch(/^Points are percentage points of the chance to win/);
    // ...before the marked decisions, which count their loss in points too.
    expect(
      (note as HTMLElement).compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('jumps to the last move from the last pixels of a narrow chart (the side column holds it)', async () => {
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify({ record: RECORD, analysis: done.analysis }))] },
    });
    const chart = await screen.findByRole('img', { name: /Chart of the US’s chance to win/ });
    const n = done.analysis.usChance.length;
    // A chart 260 px wide; jsdom lays nothing out, so the box is the chart's own.
    chart.getBoundingClientRect = () => new DOMRect(0, 0, 260, 112);
    // Inside the last move's share of the width, nearer the move before's point than its own.
    fireEvent.click(chart, { clientX: 260 * (1 - 0.9 / n) });
    expect(screen.getByText(`Move ${n} of ${RECORD.moves.length}`)).toBeTruthy();
    fireEvent.click(chart, { clientX: 1 });
    expect(screen.getByText(`Move 1 of ${RECORD.moves.length}`)).toBeTruthy();
    fireEvent.click(chart, { clientX: 130 });
    expect(
      screen.getByText(`Move ${Math.floor(n / 2) + 1} of ${RECORD.moves.length}`),
    ).toBeTruthy();
  });

  it('names a better move by cards and neighbours, never coordinates, and shows its cell on the table', async () => {
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify({ record: RECORD, analysis: done.analysis }))] },
    });
    await screen.findByRole('img', { name: /Chart of the US’s chance to win/ });
    const items = [...document.querySelectorAll<HTMLElement>('.analysis-marks li')];
    for (const item of items) expect(item.textContent).not.toMatch(/\(-?\d+, -?\d+\)/);
    // Move 5 of this seeded game: Brazil beside Europe was the better card and cell.
    const item = items.find((li) => li.textContent?.includes('Better: Brazil right of Europe'));
    expect(item?.textContent).toMatch(/^Move 5 /);
    expect(document.querySelector('[data-marked-cell]')).toBeNull();
    fireEvent.click(within(item as HTMLElement).getByRole('button', { name: 'Show on the table' }));
    // The replay stands before that move, with the cell marked on its table.
    expect(screen.getByText(`Move 4 of ${RECORD.moves.length}`)).toBeTruthy();
    expect(document.querySelector('[data-marked-cell="1,0"]')).toBeTruthy();
    expect(document.querySelector('.analysis-shown')?.textContent).toContain('before move 5');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(document.querySelector('[data-marked-cell]')).toBeNull();
  });

  it('refuses a saved analysis whose record was changed, saying so', async () => {
    const tampered = structuredClone({ record: RECORD, analysis: done.analysis });
    tampered.record.moves[0] = {
      ...(tampered.record.moves[0] as object),
      args: RECORD.moves[0]?.args[0] === 'US' ? ['USSR'] : ['US'],
    } as never;
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify(tampered))] },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('is not of this record');
  });
});
