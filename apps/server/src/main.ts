import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { createApp } from './app.ts';
import { localFanout, openRedisFanout } from './match/fanout.ts';
import { ConfigError, loadConfig } from './ops/config.ts';
import { createLogger, type Logger, readableLogsOn } from './ops/logger.ts';
import { openStores } from './storage/index.ts';

/** The web client's build, beside this package (apps/web/dist) unless WEB_DIST says otherwise. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Every line this process writes goes through the one logger (JSON for a log shipper to read,
 * or readable in a terminal): libraries' console output and Node's warnings included, and
 * whatever would crash it.
 */
function logEverything(logger: Logger): void {
  const to =
    (level: 'info' | 'warn' | 'error' | 'debug') =>
    (...args: unknown[]) =>
      logger[level](format(...args));
  console.log = to('info');
  console.info = to('info');
  console.warn = to('warn');
  console.error = to('error');
  console.debug = to('debug');
  console.trace = to('debug');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, warning.message));
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled rejection');
  });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; exiting');
    process.exit(1);
  });
}

async function main(logger: Logger): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal(error.message);
    process.exit(2);
  }
  config = { ...config, WEB_DIST: config.WEB_DIST ?? DEFAULT_WEB_DIST };
  logger.level = config.LOG_LEVEL;
  // Starting, listening and stopping are written at any level but silent: whoever runs the
  // server (a supervisor, a test, a benchmark) reads the address it took from that line.
  const lifecycle = config.LOG_LEVEL === 'silent' ? logger : logger.child({}, { level: 'info' });

  const stores = await openStores(config);
  const fanout = config.REDIS_URL
    ? await openRedisFanout(config.REDIS_URL, `iron-curtain:${config.DATABASE_SCHEMA}`, logger)
    : localFanout();
  const app = createApp(config, stores, logger, fanout);
  const port = await app.listen();
  // From the process's start: what its successor after a restart will take, about.
  const startMs = Math.round(performance.now());
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  lifecycle.info(
    {
      url,
      port,
      metrics: `${config.METRICS_HOST}:${app.metricsPort}`,
      store: stores.kind,
      fanout: fanout.kind,
      startMs,
      webDist: config.WEB_DIST,
    },
    'listening',
  );
  // For a person who typed `npm start`: the last line they read (a supervisor reads the
  // 'listening' entry above).
  if (readableLogsOn(process.stdout)) {
    process.stdout.write(`Iron Curtain Online is running at ${url}\n`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    lifecycle.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close(startMs).then(
      () => {
        lifecycle.info('stopped');
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

// Until the configuration is read, at the default level.
const logger = createLogger({ LOG_LEVEL: 'info' }, { readable: readableLogsOn(process.stdout) });
logEverything(logger);
main(logger).catch((error) => {
  logger.fatal({ err: error }, 'the server could not start');
  process.exit(1);
});
