import { createECDH } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be 0-65535')
  .max(65535, 'must be 0-65535');

const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();
const nonNegativeInt = z.coerce.number({ error: 'must be a number' }).int().min(0);

/** true or false (also 1 or 0). */
const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** true or false (also 1 or 0), true unless set. */
const flagOn = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .default('true')
  .transform((v) => v === 'true' || v === '1');

/** A comma-separated list of origins, each as `toOrigin` reads it back, or refused with `message`. */
const originList = (toOrigin: (entry: string) => string, message: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o.length > 0),
    )
    .pipe(
      z.array(
        z.string().refine((o) => {
          try {
            const plain = toOrigin(o);
            return new URL(plain).origin === plain;
          } catch {
            return false;
          }
        }, message),
      ),
    );

const origins = originList(
  (o) => o,
  'each origin must look like https://example.org (scheme, host, optional port; no path)',
);

/** A VAPID key in base64url: the public one a P-256 point (65 bytes), the private one 32 bytes. */
const vapidKey = (bytes: number) =>
  z
    .string()
    .refine(
      (v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === bytes,
      `must be ${bytes} bytes in base64url (as web-push generate-vapid-keys prints it)`,
    );

/**
 * Push services a browser's subscription may name: origins, where `*.` stands for any
 * subdomain. The server posts to these only, so a subscription cannot point it at a host of
 * the operator's network.
 */
const pushServices = originList(
  (o) => o.replace('://*.', '://'),
  'each push service must look like https://push.example.org or https://*.example.org (no path)',
);

/** The push services of the browsers in use: Chrome's, Firefox's, Edge's and Safari's. */
const PUSH_SERVICES = [
  'https://fcm.googleapis.com',
  'https://*.push.services.mozilla.com',
  'https://*.notify.windows.com',
  'https://web.push.apple.com',
];

/** Every environment variable the server reads; anything else in the environment is ignored. */
export const envSchema = z.object({
  PORT: port.default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** Postgres schema holding the tables; lets several deployments or test runs share one database. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default('public'),
  /** Redis that fans updates out across instances sharing one Postgres (scale-out). */
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional(),
  /** Comma-separated origins allowed besides the server's own (for example a Vite dev server). */
  ALLOWED_ORIGINS: origins.default([]),
  /**
   * The address players reach (scheme, host, optional port): passkeys are bound to its host
   * (the relying party's ID) and taken only from it (the origin). Unset: the request's own.
   */
  PUBLIC_URL: z
    .string()
    .transform((value) => value.replace(/\/$/, ''))
    .refine((value) => {
      try {
        return new URL(value).origin === value && /^https?:$/.test(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'must look like https://example.org (scheme, host, optional port; no path)')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The built web client; served at / when the folder exists. */
  WEB_DIST: z.string().min(1).optional(),
  /** Game-service messages a socket may send per second, sustained. */
  RATE_LIMIT_PER_SECOND: positiveInt.default(10),
  /** Game-service messages a socket may send at once before the sustained rate applies. */
  RATE_LIMIT_BURST: positiveInt.default(20),
  /** Lobby requests that write (POST under /api) one client address may make per minute. */
  LOBBY_WRITES_PER_MINUTE: positiveInt.default(60),
  /** Game sockets one client address may hold at once (on each instance): a school behind one NAT fits. */
  SOCKETS_PER_ADDRESS: positiveInt.default(200),
  /**
   * New game sockets one client address may open per second, past SOCKET_CONNECTS_AT_ONCE: the
   * pace its held handshakes are let in at (shared through Redis).
   */
  SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: z.coerce
    .number({ error: 'must be a number' })
    .positive()
    .default(10),
  /** New game sockets one client address may open at once, before the pace applies. */
  SOCKET_CONNECTS_AT_ONCE: positiveInt.default(10),
  /** Handshakes of one address held for their turn at the pace at once: past them, refused. */
  SOCKET_CONNECTS_HELD: nonNegativeInt.default(40),
  /**
   * A handshake from an address over its budget is held this long at most (never past the end
   * of its refusal) before it is answered 429: a client that reconnects the moment it is
   * refused then knocks a few times per refusal, not thousands. 0: answered at once.
   */
  DOOR_HOLD_MS: nonNegativeInt.default(10_000),
  /** A game socket that has not synced with a match this long after connecting is closed. */
  SYNC_TIMEOUT_MS: positiveInt.default(10_000),
  /** An HTTP request whose headers have not all arrived after this long is closed (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  /** An HTTP request not received whole after this long is closed. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  /** How long SIGTERM waits for queued moves before closing the store anyway. */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** How long a player must be disconnected before the opponent may claim the win. */
  ABANDON_GRACE_SECONDS: positiveInt.default(60),
  /** Open challenges (matches open to anyone, listed on the home page) one address may have listed at once. */
  OPEN_CHALLENGES_PER_ADDRESS: positiveInt.default(3),
  /** An open challenge leaves the list once its creator has been disconnected this long. */
  CHALLENGE_AWAY_SECONDS: positiveInt.default(60),
  /** Worker threads where computer players think (a hard decision is up to a second of CPU). */
  BOT_THREADS: positiveInt.default(1),
  /** Pause before each computer move, so people can follow its play. */
  BOT_MOVE_DELAY_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(600),
  /** Matches with a computer player this instance runs at once; more are refused until one ends. */
  BOT_MAX_MATCHES: positiveInt.default(16),
  /**
   * Where the operator's Prometheus metrics are served (GET /metrics), apart from the public
   * port; loopback by default, so only the machine itself can read them.
   */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the metrics listener (0: any free port); one per server process. */
  METRICS_PORT: port.default(9464),
  /** Trust X-Forwarded-* headers (set when behind a reverse proxy). */
  TRUST_PROXY: flag,
  /** Browsers reach the site over https (a TLS proxy in front): pages then send HSTS. */
  SERVED_OVER_TLS: flag,
  /** Players and spectators may write free text in the match chat; false: quick phrases only. */
  CHAT_FREE_TEXT: flagOn,
  /** Chat lines one client address may say per minute, however many sockets it opens (shared through Redis). */
  CHAT_LINES_PER_ADDRESS_PER_MINUTE: positiveInt.default(60),
  /** Sign-ups and sign-in attempts (each request of a ceremony, and recovery codes) one client address may make per minute (shared through Redis). */
  ACCOUNT_ATTEMPTS_PER_ADDRESS_PER_MINUTE: positiveInt.default(20),
  /** Unfinished matches nobody touched (no join, move or end) for this many days are removed. */
  UNFINISHED_MATCH_DAYS: positiveInt.default(7),
  /** Finished matches are removed this many days after they ended; unset: kept for replays. */
  FINISHED_MATCH_DAYS: positiveInt.optional(),
  /** Comma-separated origins whose pages may show ours in a frame; by default none may. */
  FRAME_ANCESTORS: origins.default([]),
  /** The server's VAPID public key; unset (with the private one): made on the first start and kept in the store. */
  PUSH_VAPID_PUBLIC_KEY: vapidKey(65).optional(),
  /** The private key of PUSH_VAPID_PUBLIC_KEY. */
  PUSH_VAPID_PRIVATE_KEY: vapidKey(32).optional(),
  /** Where push services may reach the operator (VAPID's subject): a mailto: or https: URL. */
  PUSH_CONTACT: z
    .string()
    .regex(/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/, 'must be a mailto: or https:// URL')
    .default('mailto:operator@iron-curtain.invalid'),
  /** Push services subscriptions may name (comma-separated origins, `*.` for any subdomain). */
  PUSH_SERVICES: pushServices.default(PUSH_SERVICES),
});

export type Config = z.output<typeof envSchema>;

/** The public key (base64url, uncompressed point) of a P-256 private key; undefined when it is none. */
export function vapidPublicOf(privateKey: string): string | undefined {
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  } catch {
    return undefined;
  }
  return ecdh.getPublicKey().toString('base64url');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration from environment variables; throws a ConfigError naming every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.REDIS_URL !== undefined && config.DATABASE_URL === undefined) {
    throw new ConfigError(
      'invalid configuration:\n  REDIS_URL: needs DATABASE_URL (instances share matches through Postgres; the embedded store belongs to one server)',
    );
  }
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  if (
    (config.PUSH_VAPID_PUBLIC_KEY === undefined) !==
    (config.PUSH_VAPID_PRIVATE_KEY === undefined)
  ) {
    throw new ConfigError(
      'invalid configuration:\n  PUSH_VAPID_PUBLIC_KEY: set both VAPID keys or neither (the server then makes a pair)',
    );
  }
  if (
    config.PUSH_VAPID_PRIVATE_KEY !== undefined &&
    vapidPublicOf(config.PUSH_VAPID_PRIVATE_KEY) !== config.PUSH_VAPID_PUBLIC_KEY
  ) {
    throw new ConfigError(
      'invalid configuration:\n  PUSH_VAPID_PUBLIC_KEY: is not the public key of PUSH_VAPID_PRIVATE_KEY',
    );
  }
  return {
    ...config,
    DATA_DIR: path.resolve(cwd, config.DATA_DIR),
    WEB_DIST: config.WEB_DIST === undefined ? undefined : path.resolve(cwd, config.WEB_DIST),
  };
}
