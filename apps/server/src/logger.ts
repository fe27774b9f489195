import { type Logger, pino } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/** JSON lines on stdout. Credentials, invites and seeds are never passed to the logger. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service: 'iron-curtain' },
    redact: { paths: ['*.credentials', '*.invite', '*.seed'], censor: '[secret]' },
  });
}
