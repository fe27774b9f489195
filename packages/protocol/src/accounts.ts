import { z } from 'zod/mini';
import {
  matchIdSchema,
  matchResultSchema,
  matchStatusSchema,
  seatSchema,
  sideSchema,
} from './lobby.ts';
import { heldSeatSchema, myGamesRequestSchema } from './my-games.ts';

/** A username: 3-20 ASCII letters, digits, `_` or `-` (reserved and look-alike names are the server's to refuse). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;
/** Recovery codes shown once at sign-up, each signing in once. */
export const RECOVERY_CODE_COUNT = 10;

/** WebAuthn's binary fields travel as base64url text. */
const base64url = z.string().check(z.regex(/^[A-Za-z0-9_-]*$/), z.maxLength(8192));
/** A typed name as sent; its rules are checked by the server, each refusal with its code. */
const typedName = z.string().check(z.minLength(1), z.maxLength(64));

/** An account as its owner sees it. */
export const accountSchema = z.object({ username: z.string(), createdAt: z.string() });
export type Account = z.infer<typeof accountSchema>;

/** POST /api/account/sign-up/options: the name to sign up with. */
export const signUpOptionsRequestSchema = z.object({ username: typedName });
export type SignUpOptionsRequest = z.infer<typeof signUpOptionsRequestSchema>;

/**
 * WebAuthn's creation options as JSON (PublicKeyCredentialCreationOptionsJSON, what
 * `@simplewebauthn/browser`'s startRegistration takes): the fields a client reads, the rest kept.
 */
export const registrationOptionsSchema = z.looseObject({
  challenge: base64url,
  rp: z.looseObject({ id: z.optional(z.string()), name: z.string() }),
  user: z.looseObject({ id: base64url, name: z.string(), displayName: z.string() }),
});
export const signUpOptionsResponseSchema = z.object({ options: registrationOptionsSchema });
export type SignUpOptionsResponse = z.infer<typeof signUpOptionsResponseSchema>;

/** The browser's new passkey (RegistrationResponseJSON, what startRegistration answers). */
export const registrationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(8))),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
});

/** A passkey made for a challenge, and the name its owner gives it. */
const newPasskeySchema = z.object({
  response: registrationResponseSchema,
  passkeyName: z.optional(z.string().check(z.maxLength(60))),
});

/**
 * The seats this browser holds, each proven by its credentials, to join the account a sign-up
 * or sign-in makes (those whose credentials do not hold their seat are left out).
 */
const carriedSeats = { seats: z.optional(myGamesRequestSchema.shape.seats) };

/** POST /api/account/sign-up: the passkey made for the options' challenge, its name, the seats held. */
export const signUpRequestSchema = z.extend(newPasskeySchema, carriedSeats);
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

/** The new account, its recovery codes (shown this once; the server keeps only keyed hashes). */
export const signUpResponseSchema = z.object({
  account: accountSchema,
  recoveryCodes: z.array(z.string()).check(z.length(RECOVERY_CODE_COUNT)),
});
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;

/** WebAuthn's request options as JSON (PublicKeyCredentialRequestOptionsJSON), an empty allow list. */
export const authenticationOptionsSchema = z.looseObject({ challenge: base64url });
export const signInOptionsResponseSchema = z.object({ options: authenticationOptionsSchema });
export type SignInOptionsResponse = z.infer<typeof signInOptionsResponseSchema>;

/** The browser's signature with a passkey (AuthenticationResponseJSON, what startAuthentication answers). */
export const authenticationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(base64url),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
});

/** POST /api/account/sign-in: the signature made for the options' challenge, and the seats held. */
export const signInRequestSchema = z.object({
  response: authenticationResponseSchema,
  ...carriedSeats,
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** POST /api/account/sign-in/recovery: a name, one of its recovery codes, and the seats held. */
export const recoverySignInRequestSchema = z.object({
  username: typedName,
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  ...carriedSeats,
});
export type RecoverySignInRequest = z.infer<typeof recoverySignInRequestSchema>;

/** A sign-in's answer, and GET /api/account's: the signed-in account. */
export const signedInResponseSchema = z.object({ account: accountSchema });
export type SignedInResponse = z.infer<typeof signedInResponseSchema>;

/** POST /api/account/sign-out-everywhere: how many sessions ended, this one included. */
export const signedOutResponseSchema = z.object({ ended: z.number() });
export type SignedOutResponse = z.infer<typeof signedOutResponseSchema>;

/**
 * POST /api/account/seats: seats this browser holds, to join the signed-in account, each
 * proven by its credentials (the same shape as a My games request).
 */
export const joinSeatsRequestSchema = myGamesRequestSchema;
export type JoinSeatsRequest = z.input<typeof joinSeatsRequestSchema>;
/** How many of the seats sent were proven and are now the account's (seats it held already count). */
export const joinSeatsResponseSchema = z.object({ joined: z.number() });
export type JoinSeatsResponse = z.infer<typeof joinSeatsResponseSchema>;

/** GET /api/account/seats: the account's seats, the latest joined first, as a My games request takes them. */
export const accountSeatsResponseSchema = z.object({ seats: z.array(heldSeatSchema) });
export type AccountSeatsResponse = z.infer<typeof accountSeatsResponseSchema>;

/** POST /api/account/passkeys: another passkey of the signed-in account, made for the options' challenge. */
export const addPasskeyRequestSchema = newPasskeySchema;
export type AddPasskeyRequest = z.infer<typeof addPasskeyRequestSchema>;

/** A passkey as its owner's settings show it: the name given it and its dates, nothing secret. */
export const passkeyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
/** GET /api/account/passkeys, and the answer of adding one: the account's passkeys, the oldest first. */
export const passkeyListSchema = z.object({ passkeys: z.array(passkeyInfoSchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

/** DELETE /api/account/passkeys: one of the signed-in account's passkeys, by its id. */
export const removePasskeyRequestSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(1024)),
});
export type RemovePasskeyRequest = z.infer<typeof removePasskeyRequestSchema>;

/**
 * POST /api/account/passkey-codes: a one-time code, shown on this signed-in device, with which
 * another device registers a passkey of this account (10 minutes, once, a few tries).
 */
export const passkeyCodeSchema = z.object({ code: z.string(), expiresAt: z.string() });
export type PasskeyCode = z.infer<typeof passkeyCodeSchema>;

/** POST /api/account/passkey-codes/options: the code as typed on the other device (case and dashes do not matter). */
export const passkeyCodeRedeemSchema = z.object({
  code: z.string().check(z.minLength(1), z.maxLength(64)),
});
export type PasskeyCodeRedeem = z.infer<typeof passkeyCodeRedeemSchema>;
/** Its answer is a SignUpOptionsResponse: creation options for the code's account. */

/** POST /api/account/passkey-codes/passkey: the passkey made for those options; answered as a sign-in. */
export const passkeyCodePasskeySchema = newPasskeySchema;
export type PasskeyCodePasskey = z.infer<typeof passkeyCodePasskeySchema>;

/** A game in an account's export: the seat it held and the match as it stands (no credentials). */
export const exportedGameSchema = z.object({
  matchID: matchIdSchema,
  seat: seatSchema,
  side: sideSchema,
  name: z.nullable(z.string()),
  opponent: z.nullable(z.string()),
  status: matchStatusSchema,
  result: z.nullable(matchResultSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  joinedAt: z.string(),
});

/**
 * GET /api/account/export: the signed-in account's data as one JSON file: the account, its
 * passkeys' names and dates, its games. No secret: no credentials, keys or sessions.
 */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  account: accountSchema,
  passkeys: z.array(
    z.object({ name: z.string(), createdAt: z.string(), lastUsedAt: z.nullable(z.string()) }),
  ),
  games: z.array(exportedGameSchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/** The name a deleted account's finished games show in its place. */
export const DELETED_PLAYER_NAME = 'deleted player';

/** DELETE /api/account: the account is gone (its sessions, passkeys and seats with it). */
export const accountDeletedSchema = z.object({ deleted: z.literal(true) });
export type AccountDeleted = z.infer<typeof accountDeletedSchema>;
