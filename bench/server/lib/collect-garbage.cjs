// Preloaded into a server by `--collect` (with --expose-gc): on SIGUSR2 the process runs a full
// garbage collection and prints its memory on stdout (`BENCH_COLLECTED {json}`), so a reading
// counts what the server keeps, not how long ago V8's last major collection happened to run.
const { isMainThread } = require('node:worker_threads');

if (isMainThread && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    // V8 returns freed pages to the system from a background task: give it a moment.
    setTimeout(() => {
      const { rss, heapUsed, external } = process.memoryUsage();
      process.stdout.write(`BENCH_COLLECTED ${JSON.stringify({ rss, heapUsed, external })}\n`);
    }, 200);
  });
}
