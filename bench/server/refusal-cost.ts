/**
 * What refusing a handshake costs our server: one address (127.0.0.2) spends its budget of new
 * sockets, then sends `--attempts` more WebSocket upgrades, `--concurrency` at a time, each on
 * a new connection as a reconnecting attacker does; the server's CPU time over those attempts
 * (user + system, from /proc, so the figure does not swing with the machine's load as wall
 * time does) divided by their number. Production limits; nothing else runs on the server.
 *
 *   npx tsx bench/server/refusal-cost.ts [-- --attempts 2000 --concurrency 20 --rounds 3]
 */
import net from 'node:net';
import { FLOOD_ADDRESS } from './client/flooder.ts';
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { machine, record } from './lib/report.ts';
import { startTarget } from './lib/targets.ts';

const options = parseOptions({ attempts: 2_000, concurrency: 20, rounds: 3, workers: 1 });

/** One upgrade on a new connection: the status line's code (0 when closed without one). */
function upgrade(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: FLOOD_ADDRESS }, () => {
      socket.write(
        'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', () => resolve(0));
    socket.on('close', () => resolve(0));
  });
}

/** `count` upgrades, `concurrency` at a time: how many got each status. */
async function barrage(port: number, count: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let left = count;
  const lane = async () => {
    while (left > 0) {
      left -= 1;
      const status = await upgrade(port);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return statuses;
}

bounded(60 + options.rounds * 120, async () => {
  const run = machine();
  const rows: (string | number)[][] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const target = await startTarget('sqlite', {
      cpuProf: options.cpuProf,
      env: {
        SOCKETS_PER_ADDRESS: '200',
        SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '10',
        SOCKET_CONNECTS_AT_ONCE: '100',
        SOCKET_CONNECTS_HELD: '0',
      },
    });
    try {
      // The budget: 100 new sockets at once, none held, then the first refusals.
      const spent = await barrage(target.port, 110);
      const cpuStart = target.cpuSeconds();
      const started = performance.now();
      const statuses = await barrage(target.port, options.attempts);
      const seconds = (performance.now() - started) / 1000;
      const cpu = target.cpuSeconds() - cpuStart;
      rows.push([
        round,
        JSON.stringify(spent),
        JSON.stringify(statuses),
        Math.round(options.attempts / seconds),
        ((cpu / options.attempts) * 1e6).toFixed(0),
        `${Math.round((cpu / seconds) * 100)} %`,
      ]);
    } finally {
      await target.dispose();
    }
  }
  record(
    'refusal-cost',
    run,
    [
      'round',
      'budget spent (statuses)',
      'attempts (statuses)',
      'attempts/s',
      'server CPU µs per attempt',
      'server CPU',
    ],
    rows,
    { attempts: options.attempts, concurrency: options.concurrency },
  );
});
