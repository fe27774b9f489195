/**
 * The flood: a client process whose sockets all come from one address (127.0.0.2) and send
 * moves as fast as the connection takes them, never waiting for an answer. A socket that is
 * dropped or refused tries again after `retryMs` (the `paced` attacker: 20 ms), or at once
 * (`reconnecting`: 0, the next turn of the event loop), as an attacker would. Told to stop over
 * IPC, it reports what it sent and what the server did with it.
 */
import { io, type Socket } from 'socket.io-client';

export const FLOOD_ADDRESS = '127.0.0.2';

export interface FloodTask {
  base: string;
  sockets: number;
  /** How long a dropped or refused socket waits before it tries again; 0: at once. */
  retryMs: number;
}

export interface FloodResult {
  /** Moves handed to the transport. */
  sent: number;
  /** Answers to them: refusals by code. */
  refused: Record<string, number>;
  /** Connections the server accepted, and handshakes it refused. */
  connected: number;
  connectRefused: number;
  /** Sockets the server closed. */
  dropped: number;
  /** Sockets still connected when told to stop. */
  connectedAtEnd: number;
  /** Share of one core this process used while flooding: the attacker's machine, here ours. */
  cpu: number;
}

const result: FloodResult = {
  sent: 0,
  refused: {},
  connected: 0,
  connectRefused: 0,
  dropped: 0,
  connectedAtEnd: 0,
  cpu: 0,
};
let startedAt = 0;
const sockets: Socket[] = [];
let stopping = false;

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/** Keeps the socket's outgoing buffer full of moves while it is connected. */
function flood(socket: Socket, matchID: string): void {
  const engine = socket.io.engine as unknown as { writeBuffer?: unknown[] } | undefined;
  const move = {
    matchID,
    stateID: 0,
    action: {
      type: 'MAKE_MOVE',
      payload: { type: 'chooseFirstPlayer', args: ['US'], playerID: '0' },
    },
  };
  const pump = () => {
    if (stopping || !socket.connected) return;
    if ((engine?.writeBuffer?.length ?? 0) < 200) {
      for (let i = 0; i < 100; i++) socket.emit('update', move);
      result.sent += 100;
    }
    setImmediate(pump);
  };
  pump();
}

function open(base: string, matchID: string, credentials: string, retryMs: number): void {
  const socket = io(`${base}/game`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    localAddress: FLOOD_ADDRESS,
  } as Parameters<typeof io>[1]);
  sockets.push(socket);
  const connect = () => {
    if (!stopping) socket.connect();
  };
  const again = () => {
    if (retryMs === 0) setImmediate(connect);
    else setTimeout(connect, retryMs);
  };
  socket.on('connect', () => {
    result.connected += 1;
    socket.emit('sync', { matchID, playerID: '0', credentials });
    flood(socket, matchID);
  });
  socket.on('connect_error', () => {
    result.connectRefused += 1;
    again();
  });
  socket.on('disconnect', () => {
    result.dropped += 1;
    again();
  });
  socket.on('refused', (r: { code: string }) => {
    result.refused[r.code] = (result.refused[r.code] ?? 0) + 1;
  });
}

process.on('message', async (message: { type: 'start'; task: FloodTask } | { type: 'stop' }) => {
  if (message.type === 'start') {
    const { base, sockets: count, retryMs } = message.task;
    const created = await postJson<{ matchID: string; credentials: string }>(
      `${base}/api/matches`,
      { name: 'flood', side: 'US' },
    );
    startedAt = performance.now();
    for (let i = 0; i < count; i++) open(base, created.matchID, created.credentials, retryMs);
    process.send?.({ type: 'started' });
    return;
  }
  stopping = true;
  const { user, system } = process.cpuUsage();
  result.cpu = (user + system) / 1000 / (performance.now() - startedAt);
  result.connectedAtEnd = sockets.filter((s) => s.connected).length;
  for (const s of sockets) s.close();
  process.send?.({ type: 'flood', result });
  setTimeout(() => process.exit(0), 100);
});
