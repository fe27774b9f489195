import fs from 'node:fs';
import path from 'node:path';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Data directories claimed by this process. */
const claimed = new Set<string>();

/**
 * Claims DATA_DIR for this process with a pid file. The embedded store must have one
 * writer; a pid file left by a killed server is taken over, a live one is refused.
 * Returns a function that releases the claim.
 */
export function claimDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const key = fs.realpathSync(dir);
  if (claimed.has(key)) throw new Error(`DATA_DIR ${dir} is in use by this server already`);
  const pidFile = path.join(dir, 'server.pid');
  let holder: number | undefined;
  try {
    holder = Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    throw new Error(`DATA_DIR ${dir} is in use by another server (pid ${holder})`);
  }
  fs.writeFileSync(pidFile, String(process.pid));
  claimed.add(key);
  return () => {
    claimed.delete(key);
    try {
      if (fs.readFileSync(pidFile, 'utf8') === String(process.pid)) fs.unlinkSync(pidFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
}
