import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { localFanout, openRedisFanout } from './fanout.ts';
import { createLogger } from './logger.ts';
import { openStore } from './storage/index.ts';

/** The web client's build, beside this package (apps/web/dist) unless WEB_DIST says otherwise. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  config = { ...config, WEB_DIST: config.WEB_DIST ?? DEFAULT_WEB_DIST };
  const logger = createLogger(config);
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled rejection');
  });

  const store = await openStore(config);
  const fanout = config.REDIS_URL
    ? await openRedisFanout(config.REDIS_URL, `iron-curtain:${config.DATABASE_SCHEMA}`, logger)
    : localFanout();
  const app = createApp(config, store, logger, fanout);
  const port = await app.listen();
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  logger.info(
    { port, store: store.kind, fanout: fanout.kind, webDist: config.WEB_DIST },
    'listening',
  );
  console.log(`Iron Curtain Online is running at ${url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  console.error(`the server could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
