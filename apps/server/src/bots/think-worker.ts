import { parentPort } from 'node:worker_threads';
import { chooseDraftedMove } from '@iron-curtain/bots';
import { type RulesContext, rulesKey } from '@iron-curtain/game';
import type { ThinkJob, ThinkResult } from './thinker.ts';

// Each context arrives cloned with its job; one copy per context keeps the engine's deck index warm.
const contexts = new Map<string, RulesContext>();
const interned = (rules: RulesContext): RulesContext => {
  const key = rulesKey(rules);
  const known = contexts.get(key);
  if (known) return known;
  contexts.set(key, rules);
  return rules;
};

// One decision at a time, off the server's event loop: a hard decision is up to a second of CPU.
parentPort?.on('message', (job: ThinkJob) => {
  let result: ThinkResult;
  try {
    result = {
      id: job.id,
      // A placement step's cubes drafted and sent as one move, as a person's client sends them.
      move: chooseDraftedMove(interned(job.rules), job.view, job.seat, job.level, {
        seed: job.seed,
      }),
    };
  } catch (error) {
    result = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(result);
});
