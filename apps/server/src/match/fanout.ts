import { randomBytes } from 'node:crypto';
import {
  type Attendance,
  attendanceSchema,
  type FanoutMessage,
  fanoutEnvelopeSchema,
} from '@iron-curtain/protocol/fanout';
import { Redis } from 'ioredis';
import type { Logger } from '../ops/logger.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';

export type { Attendance, FanoutMessage };

export const noAttendance = (): Attendance => ({ seats: { '0': 0, '1': 0 }, spectators: 0 });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * How one server instance hears about matches whose moves are made on another: state
 * updates and presence changes, and who is attached where. Without Redis there is only
 * one instance and nothing to hear.
 */
export interface Fanout {
  readonly kind: 'local' | 'redis';
  /** Receive this match's messages from now on; counted, once per attached socket. */
  watch(matchID: string): Promise<void>;
  unwatch(matchID: string): void;
  /** Tells the other instances; never throws (a lost message heals at the next state). */
  publish(message: FanoutMessage): void;
  onMessage(handler: (message: FanoutMessage) => void): void;
  /** Records this instance's sockets of a match for the others to count. */
  share(matchID: string, attendance: Attendance): Promise<void>;
  /** Sockets of a match attached to the other live instances. */
  elsewhere(matchID: string): Promise<Attendance>;
  /** How many other instances are alive now (0 alone, or when Redis cannot tell). */
  peers(): Promise<number>;
  close(): Promise<void>;
}

/** One instance alone. */
export function localFanout(): Fanout {
  return {
    kind: 'local',
    watch: async () => undefined,
    unwatch: () => undefined,
    publish: () => undefined,
    onMessage: () => undefined,
    share: async () => undefined,
    elsewhere: async () => noAttendance(),
    peers: async () => 0,
    close: async () => undefined,
  };
}

/** An instance that has not beaten for this long counts as gone (killed, cut off). */
export const ALIVE_MS = 15_000;
const HEARTBEAT_MS = 5_000;
/** Attendance of a match nobody touches any more disappears on its own. */
const ATTENDANCE_TTL_S = 24 * 60 * 60;

/**
 * Redis pub/sub, one channel per match, subscribed while this instance holds a socket of it.
 * Every instance beats in one sorted set, scored by the time of its last heartbeat (`time`,
 * each instance's own clock: those of one host or of NTP-synced hosts agree far closer than
 * ALIVE_MS), so a killed instance counts as gone ALIVE_MS after its last beat. Attendance
 * lives in one hash per match (a field per instance), counted only for live instances.
 */
export async function openRedisFanout(
  url: string,
  namespace: string,
  logger: Logger,
  time: TimeSource = systemTime,
): Promise<Fanout> {
  const options = { lazyConnect: true, commandTimeout: 2_000, maxRetriesPerRequest: 2 };
  const commands = new Redis(url, { ...options, connectionName: 'ic-commands' });
  const subscriber = new Redis(url, { ...options, connectionName: 'ic-subscriber' });
  for (const [role, connection] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    connection.on('error', (error) => logger.warn({ err: error, role }, 'redis connection error'));
  }
  try {
    await Promise.all([commands.connect(), subscriber.connect()]);
  } catch (error) {
    commands.disconnect();
    subscriber.disconnect();
    throw new Error(`cannot reach Redis at REDIS_URL: ${(error as Error).message}`);
  }

  const instanceID = randomBytes(8).toString('hex');
  const channel = (matchID: string) => `${namespace}:match:${matchID}`;
  const attendanceKey = (matchID: string) => `${namespace}:attendance:${matchID}`;
  const instancesKey = `${namespace}:instances`;
  const channelPrefix = `${namespace}:match:`;
  const aliveSince = () => time.now() - ALIVE_MS;

  // The gone are dropped at each beat; the set itself goes once nobody has beaten for ALIVE_MS.
  const beat = () =>
    commands
      .multi()
      .zadd(instancesKey, time.now(), instanceID)
      .zremrangebyscore(instancesKey, '-inf', `(${aliveSince()}`)
      .pexpire(instancesKey, ALIVE_MS)
      .exec()
      .catch((error) => logger.warn({ err: error }, 'redis heartbeat failed'));
  await beat();
  let heartbeat: unknown;
  const beatOn = () => {
    heartbeat = time.setTimer(() => {
      void beat();
      beatOn();
    }, HEARTBEAT_MS);
  };
  beatOn();

  const handlers: ((message: FanoutMessage) => void)[] = [];
  subscriber.on('message', (from: string, text: string) => {
    if (!from.startsWith(channelPrefix)) return;
    const parsed = fanoutEnvelopeSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      logger.warn({ channel: from }, 'ignored a malformed fan-out message');
      return;
    }
    if (parsed.data.from === instanceID) return;
    for (const handler of handlers) handler(parsed.data.message);
  });

  const watched = new Map<string, { count: number; subscribed: Promise<unknown> }>();

  return {
    kind: 'redis',

    async watch(matchID) {
      let entry = watched.get(matchID);
      if (!entry) {
        entry = { count: 0, subscribed: subscriber.subscribe(channel(matchID)) };
        watched.set(matchID, entry);
      }
      entry.count += 1;
      try {
        await entry.subscribed;
      } catch (error) {
        logger.warn({ err: error, matchID }, 'could not subscribe to the match');
      }
    },

    unwatch(matchID) {
      const entry = watched.get(matchID);
      if (!entry) return;
      entry.count -= 1;
      if (entry.count > 0) return;
      watched.delete(matchID);
      subscriber
        .unsubscribe(channel(matchID))
        .catch((error) => logger.warn({ err: error, matchID }, 'could not unsubscribe'));
    },

    publish(message) {
      commands
        .publish(channel(message.matchID), JSON.stringify({ from: instanceID, message }))
        .catch((error) =>
          logger.warn({ err: error, matchID: message.matchID }, 'fan-out publish failed'),
        );
    },

    onMessage(handler) {
      handlers.push(handler);
    },

    async share(matchID, attendance) {
      const key = attendanceKey(matchID);
      const empty =
        attendance.spectators === 0 && attendance.seats['0'] === 0 && attendance.seats['1'] === 0;
      try {
        if (empty) await commands.hdel(key, instanceID);
        else {
          await commands
            .multi()
            .hset(key, instanceID, JSON.stringify(attendance))
            .expire(key, ATTENDANCE_TTL_S)
            .exec();
        }
      } catch (error) {
        logger.warn({ err: error, matchID }, 'could not share attendance');
      }
    },

    async elsewhere(matchID) {
      const total = noAttendance();
      try {
        const key = attendanceKey(matchID);
        const others = Object.entries(await commands.hgetall(key)).filter(
          ([id]) => id !== instanceID,
        );
        if (others.length === 0) return total;
        const beats = await commands.zmscore(instancesKey, ...others.map(([id]) => id));
        const since = aliveSince();
        const gone: string[] = [];
        others.forEach(([id, text], i) => {
          const beat = beats[i];
          if (beat == null || Number(beat) < since) {
            gone.push(id);
            return;
          }
          const parsed = attendanceSchema.safeParse(parseJson(text));
          if (!parsed.success) return;
          total.seats['0'] += parsed.data.seats['0'];
          total.seats['1'] += parsed.data.seats['1'];
          total.spectators += parsed.data.spectators;
        });
        if (gone.length > 0) await commands.hdel(key, ...gone);
      } catch (error) {
        logger.warn({ err: error, matchID }, 'could not read attendance elsewhere');
      }
      return total;
    },

    async peers() {
      try {
        const live = await commands.zrangebyscore(instancesKey, aliveSince(), '+inf');
        return live.filter((id) => id !== instanceID).length;
      } catch (error) {
        logger.warn({ err: error }, 'could not count the other instances');
        return 0;
      }
    },

    async close() {
      time.clearTimer(heartbeat);
      // Gone at once: the others stop counting this instance and its sockets.
      await commands.zrem(instancesKey, instanceID).catch(() => undefined);
      await Promise.all([commands, subscriber].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
