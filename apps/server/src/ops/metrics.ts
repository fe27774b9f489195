import { createServer } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one server; each server has its own registry so tests can run several. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    matchesCreated: new Counter({
      name: 'ic_matches_created_total',
      help: 'Matches created through the lobby',
      registers: [registry],
    }),
    matchesActive: new Gauge({
      name: 'ic_matches_active',
      help: 'Matches with at least one socket attached on this instance',
      registers: [registry],
    }),
    sockets: new Gauge({
      name: 'ic_sockets',
      help: 'Sockets connected to the game service',
      registers: [registry],
    }),
    moves: new Counter({
      name: 'ic_moves_total',
      help: 'Moves accepted and stored',
      registers: [registry],
    }),
    rejections: new Counter({
      name: 'ic_rejections_total',
      help: 'Messages refused by the game service, by refusal code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
    chatLines: new Counter({
      name: 'ic_chat_lines_total',
      help: 'Chat lines accepted and stored, by room',
      labelNames: ['room'] as const,
      registers: [registry],
    }),
    matchesRemoved: new Counter({
      name: 'ic_matches_removed_total',
      help: 'Old matches removed with their data by the cleanup, by the status they had',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    cleanupRuns: new Counter({
      name: 'ic_match_cleanup_runs_total',
      help: 'Runs of the old-match cleanup on this instance, by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    moveLatency: new Histogram({
      name: 'ic_move_latency_seconds',
      help: 'From receiving a move to broadcasting the stored result',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export interface MetricsListener {
  /** The port it listens on (the configured one, or the one picked for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on an address of its own, apart from the public port: the counters
 * are the operator's (loopback by default; a scraper on another host needs METRICS_HOST).
 */
export function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
