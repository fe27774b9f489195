import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface Running {
  url: string;
  child: ChildProcess;
  output: string[];
}

/**
 * Starts a server process and waits for the URL it prints. `command` defaults to this Node
 * running `args` (the built bundle).
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  options: { command?: string; cwd?: string; spawn?: SpawnOptions } = {},
): Promise<Running> {
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.spawn,
  });
  const output: string[] = [];
  child.stderr?.on('data', (d) => output.push(String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed:\n${output.join('')}`)),
      30_000,
    );
    child.stdout?.on('data', (d) => {
      output.push(String(d));
      const found = /running at (http:\/\/\S+?)\/?$/m.exec(output.join(''));
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output.join('')}`));
    });
  });
  return { url, child, output };
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
