import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.ts';

export type { Logger };

/** Logs for a person when the output is a terminal; JSON lines for containers, files and pipes. */
export const readableLogsOn = (output: { isTTY?: boolean }): boolean => output.isTTY === true;

/**
 * JSON lines on stdout, or the same entries pretty-printed (`readable`). Credentials, invites
 * and seeds are never passed to the logger.
 */
export function createLogger(
  config: Pick<Config, 'LOG_LEVEL'>,
  options: { readable?: boolean } = {},
): Logger {
  const settings = {
    level: config.LOG_LEVEL,
    base: { service: 'iron-curtain' },
    redact: { paths: ['*.credentials', '*.invite', '*.seed'], censor: '[secret]' },
  };
  if (!options.readable) return pino(settings);
  // Synchronous, so that nothing logged before an exit is lost.
  return pino(
    settings,
    pretty({ sync: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,service' }),
  );
}
