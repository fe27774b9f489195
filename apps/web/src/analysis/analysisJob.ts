import { analyseRecord } from '@iron-curtain/bots';
import type { MatchRecord } from '@iron-curtain/game';
import type { MatchAnalysis } from '@iron-curtain/protocol/analysis';

/** What the replay page asks the analysis worker. */
export interface AnalysisRequest {
  record: MatchRecord;
  seed: string;
  iterations: number;
}

/** What the worker answers, in order: progress after each decision, then the analysis or why not. */
export type AnalysisMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; analysis: MatchAnalysis }
  | { type: 'failed'; reason: string };

/** The worker's whole job, apart from the messaging: the same analyseRecord the CLI runs. */
export function runAnalysisJob(request: AnalysisRequest, post: (m: AnalysisMessage) => void): void {
  try {
    const analysis = analyseRecord(request.record, {
      seed: request.seed,
      iterations: request.iterations,
      onProgress: (done, total) => post({ type: 'progress', done, total }),
    });
    post({ type: 'done', analysis });
  } catch (error) {
    post({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
  }
}
