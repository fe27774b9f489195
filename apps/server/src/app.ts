import { createServer, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import Koa from 'koa';
import compress from 'koa-compress';
import { accountRouter } from './accounts/account-routes.ts';
import { profileRouter } from './accounts/profile-routes.ts';
import { seatNames } from './accounts/seat-names.ts';
import { sessionOrigin } from './accounts/session-origin.ts';
import { signedInAccount, socketSessions } from './accounts/signed-in.ts';
import { BotSeats } from './bots/bot-seats.ts';
import { BotCredentials } from './bots/credentials.ts';
import { ConnectionLimits, httpServerOptions } from './edge/connection-limits.ts';
import { errorAnswers } from './edge/error-answers.ts';
import { lobbyWriteLimit } from './edge/lobby-rate-limit.ts';
import { RateLimiters } from './edge/rate-limiters.ts';
import { logKoaErrors, requestIds } from './edge/request-log.ts';
import { securityHeaders } from './edge/security-headers.ts';
import { webClient } from './edge/static-files.ts';
import { ChallengeBoard } from './lobby/challenge-board.ts';
import { DeadlineSweep } from './lobby/deadline-sweep.ts';
import { DeckLibrary } from './lobby/deck-library.ts';
import { HANDOVER_FAILURE_LIMIT, handoverRouter } from './lobby/handovers.ts';
import { Lobby } from './lobby/lobby.ts';
import { lobbyRouter } from './lobby/lobby-routes.ts';
import { MatchCleanup } from './lobby/match-cleanup.ts';
import { matchRouter } from './lobby/match-routes.ts';
import { myGamesRouter } from './lobby/my-games.ts';
import { pushRouter } from './lobby/push-routes.ts';
import { Referee } from './lobby/referee.ts';
import { RematchDesk } from './lobby/rematch-desk.ts';
import { SignedInSeats } from './lobby/signed-in-seats.ts';
import type { FinishMatch } from './match/ending.ts';
import { MatchEngine } from './match/engine.ts';
import { type Fanout, localFanout } from './match/fanout.ts';
import { GameService } from './match/game-service.ts';
import { PresenceBook } from './match/presence-book.ts';
import type { Config } from './ops/config.ts';
import type { Logger } from './ops/logger.ts';
import { createMetrics, type Metrics, type MetricsListener, serveMetrics } from './ops/metrics.ts';
import { systemTime, type TimeSource } from './ops/time.ts';
import { Notifier } from './push/notifier.ts';
import { VapidKeys } from './push/vapid-keys.ts';
import type { MatchRecord, Stores } from './storage/index.ts';

/**
 * Connections the kernel queues for us to accept (capped by net.core.somaxconn). Node's 511
 * overflowed when a crowd of thousands connected at once (a restart, a final's start): the
 * kernel dropped the surplus handshakes, which came back only after TCP's retry (1 s, 3 s, 7 s).
 */
const LISTEN_BACKLOG = 8192;

export interface App {
  http: HttpServer;
  lobby: Lobby;
  game: GameService;
  metrics: Metrics;
  /** Web Push "your turn" notifications: what the match room calls when a seat should hear of its match. */
  push: Notifier;
  /** Removes old matches periodically (started by listen). */
  cleanup: MatchCleanup;
  /** Ends the matches whose turn's deadline passed, and warns a day ahead (started by listen). */
  deadlines: DeadlineSweep;
  /** Starts listening (and the metrics listener); resolves with the public port. */
  listen(): Promise<number>;
  /** The port of the operator's metrics listener (METRICS_HOST), once listening. */
  readonly metricsPort: number | undefined;
  /**
   * Stops accepting, finishes queued moves, closes sockets, the fan-out and the stores.
   * `successorStartMs`: how long the process taking over is expected to need to listen,
   * for the sockets' restart notice (0: at once, as behind a proxy).
   */
  close(successorStartMs?: number): Promise<void>;
}

/**
 * Lobby, game service and web client on one HTTP server, around one database's stores, each
 * part handed the stores it needs; with a Redis fan-out, one of several instances sharing them.
 */
export function createApp(
  config: Config,
  stores: Stores,
  logger: Logger,
  fanout: Fanout = localFanout(),
  /** Turn clocks and absences run on it; tests pass a clock they move by hand. */
  time: TimeSource = systemTime,
): App {
  const graceMs = config.ABANDON_GRACE_SECONDS * 1000;
  const metrics = createMetrics();
  const presence = new PresenceBook(fanout);
  const limiters = new RateLimiters(
    config.REDIS_URL,
    `iron-curtain:${config.DATABASE_SCHEMA}`,
    logger,
  );
  const limits = new ConnectionLimits(config, limiters, metrics, logger);
  const http = createServer(httpServerOptions(config));
  // Every open connection, HTTP or upgraded to a websocket: a stopping server ends them itself
  // (Node's closeAllConnections() knows only those still speaking HTTP).
  const connections = new Set<Socket>();
  http.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  http.on('clientError', (error, socket) => limits.clientError(error, socket));
  const { matches } = stores;
  const botCredentials = new BotCredentials(stores.secrets);
  const bots = new BotSeats(config, matches, botCredentials, logger);
  const vapidKeys = new VapidKeys(config, stores.secrets);
  const push = new Notifier({
    pushSubscriptions: stores.pushSubscriptions,
    matches,
    keys: vapidKeys,
    logger,
    time,
    services: config.PUSH_SERVICES,
  });
  const startBots = (matchID: string, known?: MatchRecord) => {
    bots
      .ensure(matchID, known)
      .catch((error) => logger.error({ err: error, matchID }, 'bots failed to start'));
  };
  const game = new GameService(http, {
    config,
    stores,
    engine: new MatchEngine(matches, time),
    presence,
    metrics,
    logger,
    fanout,
    onAttach: (match) => startBots(match.matchID, match),
    time,
    graceMs,
    limits,
    notifier: push,
    sessions: socketSessions(stores.sessions, time),
    chatLinesPerAddress: limiters.create({
      name: 'chat-lines',
      points: config.CHAT_LINES_PER_ADDRESS_PER_MINUTE,
      duration: 60,
    }),
  });
  const finish: FinishMatch = (matchID, result, now) => game.finish(matchID, result, now);
  const challenges = new ChallengeBoard({
    matches,
    presence,
    time,
    awaySince: (match, seat) => game.awaySince(match, seat),
    places: limiters.challengePlaces(config.OPEN_CHALLENGES_PER_ADDRESS),
    awayMs: config.CHALLENGE_AWAY_SECONDS * 1000,
    streams: limiters.heldConnections('challenge-streams', config.SOCKETS_PER_ADDRESS),
    accountSeats: stores.accountSeats,
  });
  const lobby = new Lobby(
    matches,
    presence,
    game.write,
    (matchID) => {
      startBots(matchID);
      challenges.changed();
    },
    finish,
    new DeckLibrary(stores.decks, time),
    botCredentials,
    stores.accountSeats,
    time,
  );
  const changed = (matchID: string) => game.matchChanged(matchID);
  const referee = new Referee({
    matches,
    presence,
    time,
    graceMs,
    awaySince: (match, seat) => game.awaySince(match, seat),
    finish,
  });
  const rematches = new RematchDesk(matches, game.write, changed, time, botCredentials);
  const cleanup = new MatchCleanup({ matches, metrics, logger, time, config });
  const deadlines = new DeadlineSweep({
    matches,
    logger,
    time,
    clockCheck: (matchID) => game.checkClock(matchID),
    warn: (matchID, seat, deadline) => game.deadlineNear(matchID, seat, deadline),
  });

  // Behind the proxy, the client's address is the last X-Forwarded-For entry, the one the
  // proxy added: earlier entries come from the client and would let it pick its address.
  const koa = new Koa({ proxy: config.TRUST_PROXY, maxIpsCount: 1 });
  logKoaErrors(koa, logger);
  koa.use(requestIds());
  // The web client's script is a third of its size compressed: what a phone waits for first.
  koa.use(compress());
  koa.use(securityHeaders(config));
  koa.use(errorAnswers(logger));
  koa.use(sessionOrigin(config.PUBLIC_URL, config.ALLOWED_ORIGINS));
  const writeLimit = lobbyWriteLimit(
    limiters.create({
      name: 'lobby-writes',
      points: config.LOBBY_WRITES_PER_MINUTE,
      duration: 60,
    }),
    (address) => limits.refused('LOBBY_WRITES_PER_ADDRESS', address),
  );
  const signedIn = signedInAccount(stores.sessions, time);
  const accountSeats = new SignedInSeats(stores.accountSeats, signedIn, time, changed);
  const router = lobbyRouter(
    lobby,
    stores,
    metrics,
    bots,
    challenges,
    accountSeats,
    seatNames(stores.accounts, signedIn),
    writeLimit,
  );
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  const around = matchRouter(lobby, matches, rematches, referee, accountSeats, writeLimit);
  koa.use(around.routes());
  koa.use(around.allowedMethods());
  const myGames = myGamesRouter(matches, accountSeats, time, writeLimit);
  koa.use(myGames.routes());
  koa.use(myGames.allowedMethods());
  const handovers = handoverRouter(
    matches,
    stores.handovers,
    time,
    limiters.create(HANDOVER_FAILURE_LIMIT),
    writeLimit,
  );
  koa.use(handovers.routes());
  koa.use(handovers.allowedMethods());
  const pushRoutes = pushRouter(
    matches,
    stores.pushSubscriptions,
    vapidKeys,
    config.PUSH_SERVICES,
    time,
    writeLimit,
  );
  koa.use(pushRoutes.routes());
  koa.use(pushRoutes.allowedMethods());
  const accountRoutes = accountRouter({
    config,
    accounts: stores.accounts,
    sessions: stores.sessions,
    challenges: stores.webauthnChallenges,
    secrets: stores.secrets,
    accountSeats: stores.accountSeats,
    codes: stores.handovers,
    matches,
    sessionsEnded: (which) => game.ties?.ended(which),
    seatsJoined: changed,
    time,
    writeLimit,
    attemptLimit: lobbyWriteLimit(
      limiters.create({
        name: 'account-attempts',
        points: config.ACCOUNT_ATTEMPTS_PER_ADDRESS_PER_MINUTE,
        duration: 60,
      }),
      (address) => limits.refused('ACCOUNT_ATTEMPTS_PER_ADDRESS', address),
    ),
  });
  koa.use(accountRoutes.routes());
  koa.use(accountRoutes.allowedMethods());
  const profiles = profileRouter({
    accounts: stores.accounts,
    accountSeats: stores.accountSeats,
    writeLimit,
  });
  koa.use(profiles.routes());
  koa.use(profiles.allowedMethods());
  koa.use(webClient(config.WEB_DIST));
  http.on('request', koa.callback());
  limits.guardDoor(http);

  let metricsListener: MetricsListener | undefined;
  return {
    http,
    lobby,
    game,
    metrics,
    push,
    cleanup,
    deadlines,
    get metricsPort() {
      return metricsListener?.port;
    },
    listen: async () => {
      // Clocks of matches in play keep running across restarts: re-arm their timers.
      await game.resumeClocks();
      await limiters.ready();
      cleanup.start();
      deadlines.start();
      metricsListener = await serveMetrics(
        metrics.registry,
        config.METRICS_HOST,
        config.METRICS_PORT,
      );
      return new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG }, () => {
          http.off('error', reject);
          const address = http.address();
          const port = typeof address === 'object' && address ? address.port : config.PORT;
          // Computer players are clients of this very server.
          const anywhere = config.HOST === '0.0.0.0' || config.HOST === '::';
          const host = anywhere ? '127.0.0.1' : config.HOST;
          bots.serve(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
          resolve(port);
        });
      });
    },
    async close(successorStartMs = 0) {
      await cleanup.stop();
      await deadlines.stop();
      challenges.close();
      await bots.close();
      // No new connections from here on: a client told to reconnect lands on another server.
      http.close();
      // io.close() closes the HTTP server too, once the connections still open are ended: each
      // flushes what was written to it and goes, without waiting for its client's goodbye.
      await game.close(() => {
        for (const socket of connections) socket.destroySoon();
      }, successorStartMs);
      // Sockets closed above leave their matches through their rooms: let them finish.
      await game.drain();
      limiters.close();
      await metricsListener?.close();
      await fanout.close();
      await stores.close();
    },
  };
}
