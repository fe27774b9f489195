/**
 * Runs a benchmark with a hard time bound: past `seconds` it stops with exit code 3,
 * and the server processes it started are killed on the way out (see targets.ts).
 */
export function bounded(seconds: number, main: () => Promise<void>): void {
  const timer = setTimeout(() => {
    console.error(`\nstopped: the run exceeded its bound of ${seconds} s`);
    process.exit(3);
  }, seconds * 1000);
  timer.unref();
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
