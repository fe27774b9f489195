import { randomBytes } from 'node:crypto';
import {
  type Account,
  type AccountDeleted,
  type AccountExport,
  type AccountSeatsResponse,
  addPasskeyRequestSchema,
  apiRoutes,
  authenticationOptionsSchema,
  DELETED_PLAYER_NAME,
  type HeldSeat,
  type JoinSeatsResponse,
  joinSeatsRequestSchema,
  type PasskeyCode,
  type PasskeyList,
  passkeyCodePasskeySchema,
  passkeyCodeRedeemSchema,
  recoverySignInRequestSchema,
  registrationOptionsSchema,
  removePasskeyRequestSchema,
  type SignedInResponse,
  type SignedOutResponse,
  type SignInOptionsResponse,
  type SignUpOptionsResponse,
  type SignUpResponse,
  signInRequestSchema,
  signUpOptionsRequestSchema,
  signUpRequestSchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod/mini';
import { LobbyError } from '../edge/lobby-error.ts';
import { type CodeRefusals, HANDOVER_TRIES, putCode, redeemCode } from '../lobby/handovers.ts';
import { jsonBody, parse } from '../lobby/lobby-routes.ts';
import type { Config } from '../ops/config.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type {
  AccountRecord,
  AccountSeat,
  AccountSeatStore,
  AccountStore,
  ChallengePurpose,
  HandoverStore,
  MatchStore,
  NameClash,
  PasskeyRecord,
  SecretStore,
  SessionStore,
  WebAuthnChallengeStore,
} from '../storage/index.ts';
import { RecoveryCodes } from './recovery-codes.ts';
import { relyingParty } from './relying-party.ts';
import {
  agentName,
  newSessionID,
  SESSION_IDLE_MS,
  sessionHash,
  sessionIDOf,
  setSessionCookie,
} from './session-cookie.ts';
import { acceptableName, nameKey } from './usernames.ts';

/** A deleted account's name stays taken this long. */
export const NAME_KEPT_MS = 365 * 24 * 60 * 60 * 1000;
/** A ceremony's challenge is taken once, within this time. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** A ceremony's answer carries an attestation or a signature: more than the lobby's 4 kB. */
const MAX_CEREMONY_BYTES = 16 * 1024;
const RP_NAME = 'Iron Curtain';
/** Up to MAX_MY_GAMES seats with their credentials. */
const MAX_SEATS_BYTES = 64 * 1024;
/** A sign-up's or sign-in's ceremony with the seats the browser holds. */
const MAX_SIGN_IN_BYTES = MAX_CEREMONY_BYTES + MAX_SEATS_BYTES;

export interface AccountRouteDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'SERVED_OVER_TLS'>;
  accounts: AccountStore;
  sessions: SessionStore;
  challenges: WebAuthnChallengeStore;
  secrets: SecretStore;
  accountSeats: AccountSeatStore;
  /** Passkey codes are one-time codes kept as the game handover's are (see `putCode`). */
  codes: HandoverStore;
  /** Seats joining an account are proven against their match. */
  matches: Pick<MatchStore, 'getMatch'>;
  /** Told of sessions ended here, so this instance's sockets untie from them at once. */
  sessionsEnded: (which: { accountID: string } | { sessionHash: string }) => void;
  /** Told of each match a seat of which joined an account, so its room names the account at once. */
  seatsJoined: (matchID: string) => void;
  time: TimeSource;
  /** The per-address write limit every lobby router runs. */
  writeLimit: Middleware;
  /** The per-address limit of sign-ups and sign-in attempts, on the routes that make them. */
  attemptLimit: Middleware;
}

/** A ceremony's challenge as its verification took it: its data, or the store's failure. */
interface Taken {
  data?: unknown;
  failure?: unknown;
}

/** What a sign-up's challenge carries to its second request. */
interface SignUpChallenge {
  username: string;
  accountID: string;
}

const notRecognised = () =>
  new LobbyError(401, 'PASSKEY_NOT_RECOGNISED', 'that passkey does not sign in here');
const ceremonyExpired = () =>
  new LobbyError(400, 'CEREMONY_EXPIRED', 'this challenge was used, expired, or never issued');
const notSignedIn = () => new LobbyError(401, 'NOT_SIGNED_IN', 'no live session');

const passkeyCodeRefusals: CodeRefusals = {
  unknown: () => new LobbyError(404, 'PASSKEY_CODE_UNKNOWN', 'no passkey code is this one'),
  used: () => new LobbyError(410, 'PASSKEY_CODE_USED', 'this passkey code was used'),
  expired: () => new LobbyError(410, 'PASSKEY_CODE_EXPIRED', 'this passkey code has expired'),
  triedOut: () =>
    new LobbyError(
      410,
      'PASSKEY_CODE_TRIED_OUT',
      `this passkey code was tried ${HANDOVER_TRIES} times and opens no more`,
    ),
};

function nameRefusal(clash: NameClash): LobbyError {
  return clash.clash === 'taken'
    ? new LobbyError(409, 'NAME_TAKEN', 'that name is taken')
    : new LobbyError(
        409,
        'NAME_TOO_CLOSE',
        `that name looks too much like ${clash.username}`,
        undefined,
        clash.username,
      );
}

/** The passkey a verified registration made, as the store keeps it. */
function passkeyOf(
  credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] },
  accountID: string,
  name: string,
  now: string,
): PasskeyRecord {
  return {
    credentialID: credential.id,
    accountID,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
    createdAt: now,
    lastUsedAt: null,
  };
}

const passkeyListOf = (passkeys: PasskeyRecord[]): PasskeyList => ({
  passkeys: passkeys.map((p) => ({
    id: p.credentialID,
    name: p.name,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
  })),
});

const accountOf = (record: AccountRecord): Account => ({
  username: record.username,
  createdAt: record.createdAt,
});

/**
 * Accounts with passkeys only (WebAuthn, verified by @simplewebauthn/server): sign-up, sign-in
 * with a passkey or a recovery code, sign-out (here or everywhere), and the signed-in account.
 * Challenges live in the store, so a ceremony's two requests may reach two instances; each is
 * taken once. A sign-in never says whether a name or a passkey exists.
 */
export function accountRouter(deps: AccountRouteDeps): Router {
  const { config, accounts, sessions, challenges, accountSeats, matches, time } = deps;
  const { sessionsEnded, codes } = deps;
  const { writeLimit, attemptLimit } = deps;
  const recoveryCodes = new RecoveryCodes(deps.secrets);
  const router = new Router();
  router.use(writeLimit);
  const iso = (ms = time.now()) => new Date(ms).toISOString();
  const rpOf = (ctx: Context) =>
    relyingParty(config.PUBLIC_URL, { protocol: ctx.protocol, host: ctx.host });

  const issue = async (challenge: string, purpose: ChallengePurpose, data: unknown) => {
    const now = time.now();
    await challenges.putChallenge(challenge, purpose, data, {
      expiresAt: iso(now + CHALLENGE_TTL_MS),
      now: iso(now),
    });
  };

  /** Takes the challenge a ceremony's answer signed, once; its data lands in `taken`. */
  const taker = (purpose: ChallengePurpose, taken: Taken) => async (challenge: string) => {
    try {
      taken.data = await challenges.takeChallenge(challenge, purpose, iso());
    } catch (error) {
      taken.failure = error;
      throw error;
    }
    return taken.data !== undefined;
  };

  /**
   * Runs a verification; its refusal is CEREMONY_EXPIRED when the challenge was not live, else
   * PASSKEY_NOT_RECOGNISED. A failure of the store stays a server error.
   */
  const verified = async <T>(taken: Taken, verify: () => Promise<T>): Promise<T> => {
    try {
      return await verify();
    } catch {
      if (taken.failure !== undefined) throw taken.failure;
      throw taken.data === undefined ? ceremonyExpired() : notRecognised();
    }
  };

  /** Ends one session; this instance's sockets tied to it untie at once. */
  const endSession = async (hash: string) => {
    const ended = await sessions.endSession(hash);
    sessionsEnded({ sessionHash: hash });
    return ended;
  };

  /**
   * The seats a browser proves (each as My games checks it: its credentials hold the seat) join
   * the account; how many did. Seats that prove nothing are left out.
   */
  const joinSeats = async (accountID: string, seats: readonly HeldSeat[] = []) => {
    const proven: AccountSeat[] = [];
    for (const held of seats) {
      const match = await matches.getMatch(held.matchID);
      const seat = match?.players.find((p) => p.seat === held.seat);
      if (seat && secretMatches(held.credentials, seat.credentialsHash)) {
        proven.push({ ...held, joinedAt: iso() });
      }
    }
    await accountSeats.addSeats(accountID, proven);
    for (const matchID of new Set(proven.map((seat) => seat.matchID))) deps.seatsJoined(matchID);
    return proven.length;
  };

  /** A new session for the account (the old one of this browser, if any, ended): the cookie set. */
  const startSession = async (ctx: Context, accountID: string) => {
    const old = sessionIDOf(ctx);
    if (old) await endSession(sessionHash(old));
    const id = newSessionID();
    const now = iso();
    await sessions.createSession({
      sessionHash: sessionHash(id),
      accountID,
      createdAt: now,
      lastSeenAt: now,
      agent: agentName(ctx.get('user-agent')),
    });
    setSessionCookie(ctx, id, config.SERVED_OVER_TLS);
  };

  router.post(apiRoutes.signUpOptions, attemptLimit, async (ctx) => {
    const { username } = parse(signUpOptionsRequestSchema, await jsonBody(ctx));
    const rp = rpOf(ctx);
    const acceptable = acceptableName(username);
    if (!acceptable.ok) {
      throw new LobbyError(
        400,
        'NAME_NOT_ALLOWED',
        `that name is not allowed (${acceptable.reason})`,
      );
    }
    // A deleted account's name is free again after NAME_KEPT_MS.
    await accounts.releaseNames(iso(time.now() - NAME_KEPT_MS));
    const clash = await accounts.nameClash(acceptable.name.nameKey, acceptable.name.skeleton);
    if (clash) throw nameRefusal(clash);
    const userID = randomBytes(16);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: username,
      userDisplayName: username,
      userID,
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const data: SignUpChallenge = { username, accountID: userID.toString('base64url') };
    await issue(options.challenge, 'sign-up', data);
    const answer: SignUpOptionsResponse = { options: parse(registrationOptionsSchema, options) };
    ctx.body = answer;
  });

  router.post(apiRoutes.signUp, attemptLimit, async (ctx) => {
    const request = parse(signUpRequestSchema, await jsonBody(ctx, MAX_SIGN_IN_BYTES));
    const rp = rpOf(ctx);
    const taken: Taken = {};
    const result = await verified(taken, () =>
      verifyRegistrationResponse({
        response: request.response,
        expectedChallenge: taker('sign-up', taken),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      }),
    );
    if (!result.verified) throw notRecognised();
    const { username, accountID } = taken.data as SignUpChallenge;
    const acceptable = acceptableName(username);
    if (!acceptable.ok) throw new LobbyError(400, 'NAME_NOT_ALLOWED', 'that name is not allowed');
    const { credential } = result.registrationInfo;
    const codes = recoveryCodes.fresh();
    const now = iso();
    const account: AccountRecord = {
      accountID,
      ...acceptable.name,
      createdAt: now,
      disabledAt: null,
      deletedAt: null,
    };
    const sessionID = newSessionID();
    const clash = await accounts.signUp({
      account,
      passkey: passkeyOf(
        credential,
        accountID,
        request.passkeyName ?? agentName(ctx.get('user-agent')),
        now,
      ),
      recoveryCodeHashes: await Promise.all(codes.map((code) => recoveryCodes.hash(code))),
      session: {
        sessionHash: sessionHash(sessionID),
        accountID,
        createdAt: now,
        lastSeenAt: now,
        agent: agentName(ctx.get('user-agent')),
      },
    });
    if (clash) throw nameRefusal(clash);
    await joinSeats(accountID, request.seats);
    // A browser signed in to another account leaves that session behind.
    const old = sessionIDOf(ctx);
    if (old) await endSession(sessionHash(old));
    setSessionCookie(ctx, sessionID, config.SERVED_OVER_TLS);
    const answer: SignUpResponse = { account: accountOf(account), recoveryCodes: codes };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.post(apiRoutes.signInOptions, attemptLimit, async (ctx) => {
    const rp = rpOf(ctx);
    // An empty allow list: the browser offers the passkeys it holds for this site.
    const options = await generateAuthenticationOptions({
      rpID: rp.rpID,
      allowCredentials: [],
      userVerification: 'preferred',
    });
    await issue(options.challenge, 'sign-in', {});
    const answer: SignInOptionsResponse = { options: parse(authenticationOptionsSchema, options) };
    ctx.body = answer;
  });

  router.post(apiRoutes.signIn, attemptLimit, async (ctx) => {
    const { response, seats } = parse(signInRequestSchema, await jsonBody(ctx, MAX_SIGN_IN_BYTES));
    const rp = rpOf(ctx);
    const passkey = await accounts.passkey(response.id);
    if (!passkey) throw notRecognised();
    if (
      response.response.userHandle !== undefined &&
      response.response.userHandle !== passkey.accountID
    ) {
      throw notRecognised();
    }
    const taken: Taken = {};
    const result = await verified(taken, () =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge: taker('sign-in', taken),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: passkey.credentialID,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      }),
    );
    if (!result.verified) throw notRecognised();
    const account = await accounts.account(passkey.accountID);
    if (!account || account.disabledAt || account.deletedAt) throw notRecognised();
    // The counter moves forward once: of two sign-ins with one signature, on any instances, one.
    if (
      !(await accounts.usePasskey(
        passkey.credentialID,
        result.authenticationInfo.newCounter,
        iso(),
      ))
    ) {
      throw notRecognised();
    }
    await joinSeats(account.accountID, seats);
    await startSession(ctx, account.accountID);
    const answer: SignedInResponse = { account: accountOf(account) };
    ctx.body = answer;
  });

  router.post(apiRoutes.recoverySignIn, attemptLimit, async (ctx) => {
    const { username, code, seats } = parse(
      recoverySignInRequestSchema,
      await jsonBody(ctx, MAX_SEATS_BYTES),
    );
    const accountID = await accounts.useRecoveryCode(
      nameKey(username),
      await recoveryCodes.hash(code),
      iso(),
    );
    const account = accountID === undefined ? undefined : await accounts.account(accountID);
    if (!account) {
      throw new LobbyError(401, 'RECOVERY_CODE_REFUSED', 'that name and code do not sign in');
    }
    await joinSeats(account.accountID, seats);
    await startSession(ctx, account.accountID);
    const answer: SignedInResponse = { account: accountOf(account) };
    ctx.body = answer;
  });

  /** The live session of the request: its hash and account, or NOT_SIGNED_IN. */
  const liveSession = async (ctx: Context) => {
    const id = sessionIDOf(ctx);
    const now = time.now();
    const found =
      id && (await sessions.touchSession(sessionHash(id), iso(now), iso(now - SESSION_IDLE_MS)));
    if (!id || !found) throw notSignedIn();
    return { id, ...found };
  };

  router.get(apiRoutes.account, async (ctx) => {
    const session = await liveSession(ctx);
    const account = await accounts.account(session.accountID);
    if (!account) throw notSignedIn();
    // Sliding: the cookie lasts as long as the session, which each use extends.
    setSessionCookie(ctx, session.id, config.SERVED_OVER_TLS);
    const answer: SignedInResponse = { account: accountOf(account) };
    ctx.body = answer;
  });

  router.post(apiRoutes.accountSeats, async (ctx) => {
    const session = await liveSession(ctx);
    const { seats } = parse(joinSeatsRequestSchema, await jsonBody(ctx, MAX_SEATS_BYTES));
    const answer: JoinSeatsResponse = { joined: await joinSeats(session.accountID, seats) };
    ctx.body = answer;
  });

  router.get(apiRoutes.accountSeats, async (ctx) => {
    const session = await liveSession(ctx);
    const seats = await accountSeats.seatsOf(session.accountID);
    const answer: AccountSeatsResponse = {
      seats: seats.map(({ matchID, seat, credentials }) => ({
        matchID,
        seat: seat as AccountSeatsResponse['seats'][number]['seat'],
        credentials,
      })),
    };
    ctx.body = answer;
  });

  router.delete(apiRoutes.account, async (ctx) => {
    const session = await liveSession(ctx);
    if (!(await accounts.deleteAccount(session.accountID, DELETED_PLAYER_NAME, iso()))) {
      throw notSignedIn();
    }
    sessionsEnded({ accountID: session.accountID });
    setSessionCookie(ctx, undefined, config.SERVED_OVER_TLS);
    const answer: AccountDeleted = { deleted: true };
    ctx.body = answer;
  });

  router.get(apiRoutes.accountExport, async (ctx) => {
    const session = await liveSession(ctx);
    const account = await accounts.account(session.accountID);
    if (!account) throw notSignedIn();
    const games: AccountExport['games'] = [];
    for (const held of await accountSeats.seatsOf(session.accountID)) {
      const match = await matches.getMatch(held.matchID);
      const mine = match?.players.find((p) => p.seat === held.seat);
      if (!match || !mine) continue;
      games.push({
        matchID: match.matchID,
        seat: mine.seat,
        side: mine.side,
        name: mine.name,
        opponent: match.players.find((p) => p.seat !== mine.seat)?.name ?? null,
        status: match.status,
        result: match.result,
        createdAt: match.createdAt,
        updatedAt: match.updatedAt,
        joinedAt: held.joinedAt,
      });
    }
    const answer: AccountExport = {
      exportedAt: iso(),
      account: accountOf(account),
      passkeys: (await accounts.passkeysOf(session.accountID)).map((p) => ({
        name: p.name,
        createdAt: p.createdAt,
        lastUsedAt: p.lastUsedAt,
      })),
      games,
    };
    ctx.set('content-disposition', `attachment; filename="iron-curtain-${account.username}.json"`);
    ctx.body = answer;
  });

  router.get(apiRoutes.passkeys, async (ctx) => {
    const session = await liveSession(ctx);
    ctx.body = passkeyListOf(await accounts.passkeysOf(session.accountID));
  });

  /** Creation options for another passkey of the account, its challenge issued for `purpose`. */
  const newPasskeyOptions = async (
    ctx: Context,
    account: { accountID: string; username: string },
    purpose: ChallengePurpose,
  ) => {
    const rp = rpOf(ctx);
    const held = await accounts.passkeysOf(account.accountID);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: account.username,
      userDisplayName: account.username,
      userID: Buffer.from(account.accountID, 'base64url'),
      attestationType: 'none',
      // The browser declines to make a second passkey in an authenticator that holds one.
      excludeCredentials: held.map((p) => ({ id: p.credentialID, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await issue(options.challenge, purpose, { accountID: account.accountID });
    const answer: SignUpOptionsResponse = { options: parse(registrationOptionsSchema, options) };
    return answer;
  };

  /**
   * A passkey registered for a challenge of `purpose` and kept: the account the challenge was
   * issued for. With `sessionAccount`, a challenge issued to another account answers nothing.
   */
  const registered = async (
    ctx: Context,
    purpose: ChallengePurpose,
    request: z.output<typeof addPasskeyRequestSchema>,
    sessionAccount?: string,
  ) => {
    const rp = rpOf(ctx);
    const taken: Taken = {};
    const result = await verified(taken, () =>
      verifyRegistrationResponse({
        response: request.response,
        expectedChallenge: taker(purpose, taken),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      }),
    );
    const { accountID } = taken.data as { accountID: string };
    if (sessionAccount !== undefined && accountID !== sessionAccount) throw ceremonyExpired();
    if (!result.verified) throw notRecognised();
    const name = request.passkeyName ?? agentName(ctx.get('user-agent'));
    const added = await accounts.addPasskey(
      passkeyOf(result.registrationInfo.credential, accountID, name, iso()),
    );
    if (!added) throw notRecognised();
    return accountID;
  };

  router.post(apiRoutes.passkeyOptions, async (ctx) => {
    const session = await liveSession(ctx);
    ctx.body = await newPasskeyOptions(ctx, session, 'add-passkey');
  });

  router.post(apiRoutes.passkeys, async (ctx) => {
    const session = await liveSession(ctx);
    const request = parse(addPasskeyRequestSchema, await jsonBody(ctx, MAX_CEREMONY_BYTES));
    const accountID = await registered(ctx, 'add-passkey', request, session.accountID);
    ctx.status = 201;
    ctx.body = passkeyListOf(await accounts.passkeysOf(accountID));
  });

  router.delete(apiRoutes.passkeys, async (ctx) => {
    const session = await liveSession(ctx);
    const { id } = parse(removePasskeyRequestSchema, await jsonBody(ctx));
    const removed = await accounts.removePasskey(session.accountID, id);
    if (removed === 'unknown')
      throw new LobbyError(404, 'NOT_FOUND', 'this account has no such passkey');
    if (removed === 'last') {
      throw new LobbyError(
        409,
        'LAST_PASSKEY',
        'the last passkey stays while no recovery code is left',
      );
    }
    ctx.body = passkeyListOf(await accounts.passkeysOf(session.accountID));
  });

  router.post(apiRoutes.passkeyCodes, async (ctx) => {
    const session = await liveSession(ctx);
    const code = await putCode(codes, { accountID: session.accountID }, 'passkey', time.now());
    const answer: PasskeyCode = code;
    ctx.status = 201;
    ctx.body = answer;
  });

  router.post(apiRoutes.passkeyCodeOptions, attemptLimit, async (ctx) => {
    const { code } = parse(passkeyCodeRedeemSchema, await jsonBody(ctx));
    const opened = (await redeemCode(codes, code, 'passkey', passkeyCodeRefusals, time.now())) as {
      accountID: string;
    };
    const account = await accounts.account(opened.accountID);
    // The account was disabled or deleted since: its code opens nothing.
    if (!account || account.disabledAt || account.deletedAt) throw passkeyCodeRefusals.unknown();
    ctx.body = await newPasskeyOptions(ctx, account, 'code-passkey');
  });

  router.post(apiRoutes.passkeyCodePasskey, attemptLimit, async (ctx) => {
    const request = parse(passkeyCodePasskeySchema, await jsonBody(ctx, MAX_CEREMONY_BYTES));
    const accountID = await registered(ctx, 'code-passkey', request);
    const account = await accounts.account(accountID);
    if (!account || account.disabledAt || account.deletedAt) throw notRecognised();
    await startSession(ctx, accountID);
    const answer: SignedInResponse = { account: accountOf(account) };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.post(apiRoutes.signOut, async (ctx) => {
    const id = sessionIDOf(ctx);
    const ended = id ? await endSession(sessionHash(id)) : false;
    setSessionCookie(ctx, undefined, config.SERVED_OVER_TLS);
    const answer: SignedOutResponse = { ended: ended ? 1 : 0 };
    ctx.body = answer;
  });

  router.post(apiRoutes.signOutEverywhere, async (ctx) => {
    const session = await liveSession(ctx);
    const ended = await sessions.endAccountSessions(session.accountID);
    sessionsEnded({ accountID: session.accountID });
    setSessionCookie(ctx, undefined, config.SERVED_OVER_TLS);
    const answer: SignedOutResponse = { ended };
    ctx.body = answer;
  });

  return router;
}
