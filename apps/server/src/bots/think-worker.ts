import { parentPort } from 'node:worker_threads';
import { chooseMove } from '@iron-curtain/bots';
import type { ThinkJob, ThinkResult } from './thinker.ts';

// One decision at a time, off the server's event loop: a hard decision is up to a second of CPU.
parentPort?.on('message', (job: ThinkJob) => {
  let result: ThinkResult;
  try {
    result = { id: job.id, move: chooseMove(job.view, job.seat, job.level, { seed: job.seed }) };
  } catch (error) {
    result = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(result);
});
