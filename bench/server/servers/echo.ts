/**
 * The floor: a bare socket.io 4.8 server that sends every 'echo' payload straight back.
 * Same transport settings as our game service (websocket only, no client bundle).
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const http = createServer();
const io = new Server(http, { transports: ['websocket'], serveClient: false });
io.of('/echo').on('connection', (socket) => {
  socket.on('echo', (payload: unknown) => socket.emit('echo', payload));
});

http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = http.address();
  console.log(`BENCH_PORT ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
