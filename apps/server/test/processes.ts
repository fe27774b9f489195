import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface Running {
  url: string;
  /** The operator's metrics: http://<METRICS_HOST>:<port>/metrics. */
  metricsUrl: string;
  child: ChildProcess;
  /** Everything it wrote, both streams, in order. */
  output: string[];
  /** What it wrote on stderr alone. */
  stderr: string[];
}

/** Where the server listens, from its JSON 'listening' log line (URL without the trailing slash). */
export function listening(stdout: string): { url: string; metricsUrl: string } | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.includes('"listening"')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string; metrics?: string };
      if (entry.msg === 'listening' && entry.url) {
        return {
          url: entry.url.replace(/\/$/, ''),
          metricsUrl: `http://${entry.metrics}/metrics`,
        };
      }
    } catch {
      // A line still being written: the next chunk completes it.
    }
  }
  return undefined;
}

/**
 * Starts a server process and waits for the URL it logs (the 'listening' line). Its metrics
 * listener takes any free port unless `env` names one. `command` defaults to this Node
 * running `args` (the built bundle).
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  options: { command?: string; cwd?: string; spawn?: SpawnOptions } = {},
): Promise<Running> {
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    env: { METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.spawn,
  });
  const output: string[] = [];
  const stderr: string[] = [];
  child.stderr?.on('data', (d) => {
    output.push(String(d));
    stderr.push(String(d));
  });
  let stdout = '';
  const where = await new Promise<{ url: string; metricsUrl: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no 'listening' line logged:\n${output.join('')}`)),
      30_000,
    );
    child.stdout?.on('data', (d) => {
      output.push(String(d));
      stdout += String(d);
      const found = listening(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output.join('')}`));
    });
  });
  return { ...where, child, output, stderr };
}

export const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** Stops a process started here, SIGKILL if SIGTERM does not end it in time. */
export async function stopProcess(child: ChildProcess, ms = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited(child);
  clearTimeout(timer);
}
