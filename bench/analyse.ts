// After-match analysis of every decision, each in its mover's own information.
// Usage: npx tsx bench/analyse.ts record.json [--seed N] [--iterations N] [--save out.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  ANALYSIS_ITERATIONS,
  AnalysisFileError,
  analyseRecord,
  analysisLines,
  readAnalysedRecord,
} from '@iron-curtain/bots';

const HELP = `npx tsx bench/analyse.ts <record.json> [options]
  --seed <text>        the analyser's seed (default: analysis)
  --iterations <n>     search iterations per decision (default ${ANALYSIS_ITERATIONS})
  --save <file>        write the record with its analysis (the replay page opens it)`;

function fail(message: string): never {
  console.error(`analyse: ${message}\n\n${HELP}`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        seed: { type: 'string' },
        iterations: { type: 'string' },
        save: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const file = positionals[0];
if (!file || positionals.length > 1) fail('name one record file');
const iterations = values.iterations === undefined ? undefined : Number(values.iterations);
if (iterations !== undefined && !(Number.isSafeInteger(iterations) && iterations > 0))
  fail('--iterations must be a positive whole number');

let json: unknown;
try {
  json = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  fail(`${file} is not a JSON file: ${(error as Error).message}`);
}
let record: ReturnType<typeof readAnalysedRecord>['record'];
try {
  record = readAnalysedRecord(json).record;
} catch (error) {
  if (error instanceof AnalysisFileError)
    fail(`${file}: ${error.code}\n  ${error.issues.join('\n  ')}`);
  throw error;
}
const started = performance.now();
const analysis = analyseRecord(record, {
  ...(values.seed !== undefined ? { seed: values.seed } : {}),
  ...(iterations !== undefined ? { iterations } : {}),
  onProgress: (done, total) => process.stderr.write(`\r${done}/${total} moves`),
});
const seconds = (performance.now() - started) / 1000;
process.stderr.write('\n');
for (const line of analysisLines(record, analysis)) console.log(line);
console.log(
  `analysed ${record.moves.length} moves in ${seconds.toFixed(1)} s (seed ${analysis.seed}, ${analysis.iterations} iterations)`,
);
if (values.save) writeFileSync(values.save, `${JSON.stringify({ record, analysis }, null, 2)}\n`);
